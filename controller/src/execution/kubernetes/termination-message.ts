import { NO_RESULT, RESULT_HEADER, RESULT_TOO_LARGE, TERMINATION_MESSAGE_LIMIT } from "./pod-wrapper.js";

/** A container's termination message, read. */
export type TerminationMessage =
  /** The wrapper wrote the engine's result file. */
  | { kind: "result"; text: string }
  /** The wrapper ran; the engine wrote no result file. */
  | { kind: "none" }
  /** The result file was larger than a termination message holds. */
  | { kind: "too-large"; bytes: number }
  /**
   * Not the wrapper's: the runtime's own message (a container that could
   * not start) or the log tail `FallbackToLogsOnError` put there.
   */
  | { kind: "other"; text: string }
  /** No message at all. */
  | { kind: "absent" };

/** Reads the message the wrapper (pod-wrapper.ts) wrote, or says what else is there. */
export function readTerminationMessage(message: string | undefined): TerminationMessage {
  if (message === undefined || message === "") return { kind: "absent" };
  const newline = message.indexOf("\n");
  const first = newline === -1 ? message : message.slice(0, newline);
  if (first === RESULT_HEADER) return { kind: "result", text: newline === -1 ? "" : message.slice(newline + 1) };
  if (first === NO_RESULT) return { kind: "none" };
  if (first.startsWith(`${RESULT_TOO_LARGE} `)) {
    const bytes = Number(first.slice(RESULT_TOO_LARGE.length + 1));
    if (Number.isSafeInteger(bytes)) return { kind: "too-large", bytes };
  }
  return { kind: "other", text: message.trim() };
}

/** Why a result file that the engine wrote could not be read, for a `too-large` message. */
export function tooLargeProblem(bytes: number): string {
  return `the result file is ${bytes} bytes; the kubernetes backend reads it from the pod's termination message, which holds ${TERMINATION_MESSAGE_LIMIT} bytes`;
}
