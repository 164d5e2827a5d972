import { GIT_LINE_ROOM, PUSH_FUNCTION } from "./checkout-script.js";

/**
 * What the kubelet keeps of a container's termination message: 4096 bytes.
 * The wrapper writes its header line and the result file within that.
 */
export const TERMINATION_MESSAGE_LIMIT = 4096;
/** First line of a termination message the wrapper wrote, then the result file's text. */
export const RESULT_HEADER = "errand-result v1";
/** The whole message when the engine wrote no result file. */
export const NO_RESULT = "errand-result none";
/** Then the result file's size: it did not fit in the message. */
export const RESULT_TOO_LARGE = "errand-result too-large";
/** Largest result file the message carries. */
export const MAX_RESULT_BYTES = TERMINATION_MESSAGE_LIMIT - RESULT_HEADER.length - 1;

/**
 * The container's entry point, run by `/bin/sh -c` (POSIX sh: dash,
 * busybox, bash). Arguments: the stdin file ("" for none), the termination
 * message file, the result file, then the engine's command line. It runs
 * the engine in the background so that SIGTERM (a stopped run) reaches it
 * (a shell as PID 1 would ignore it), waits for it, and writes the result
 * file into the termination message, which the controller reads from the
 * pod's status: no shared volume, no log scraping, and it survives the
 * controller being down while the engine ends. It exits with the engine's
 * exit code.
 */
export const WRAPPER_SCRIPT = wrapperScript(false);

/** The wrapper of a run with a checkout: it pushes the run's branch first, and says so on the message's first line. */
export const PUSH_WRAPPER_SCRIPT = wrapperScript(true);

function wrapperScript(push: boolean): string {
  const limit = push ? MAX_RESULT_BYTES - GIT_LINE_ROOM : MAX_RESULT_BYTES;
  const to = push ? '>>"$message"' : '>"$message"';
  return [
    "stdin=$1; message=$2; result=$3; shift 3; child=; stop=",
    // Set before the engine starts: a SIGTERM that comes first is passed on as soon as it runs.
    `trap 'stop=1; [ -n "$child" ] && kill -TERM "$child" 2>/dev/null' TERM INT HUP`,
    'if [ -n "$stdin" ]; then "$@" <"$stdin" & else "$@" </dev/null & fi',
    'child=$!; [ -n "$stop" ] && kill -TERM "$child" 2>/dev/null',
    'wait "$child"; code=$?',
    'while kill -0 "$child" 2>/dev/null; do wait "$child"; code=$?; done',
    ...(push ? [PUSH_FUNCTION, `printf '%s\\n' "$(errand_push "$code")" >"$message"`] : []),
    'if [ -f "$result" ]; then',
    '  size=$(wc -c <"$result" | tr -d " ")',
    `  if [ "$size" -le ${limit} ]; then { printf '%s\\n' '${RESULT_HEADER}'; cat "$result"; } ${to}`,
    `  else printf '%s %s\\n' '${RESULT_TOO_LARGE}' "$size" ${to}; fi`,
    `else printf '%s\\n' '${NO_RESULT}' ${to}; fi`,
    'exit "$code"',
  ].join("\n");
}

/** `$0` of the wrapper, as `ps` in the container shows it. */
const WRAPPER_NAME = "errand-wrapper";

/** The container's command: the wrapper (with the push when `push`), its three files, then the engine's command and arguments. */
export function wrapperCommand(
  files: { stdin: string | undefined; message: string; result: string },
  command: string,
  args: readonly string[],
  push = false,
): string[] {
  return [
    "/bin/sh",
    "-c",
    push ? PUSH_WRAPPER_SCRIPT : WRAPPER_SCRIPT,
    WRAPPER_NAME,
    files.stdin ?? "",
    files.message,
    files.result,
    command,
    ...args,
  ];
}
