import { type ChildProcess, spawn } from "node:child_process";
import { createInterface, type Interface } from "node:readline";
import { type ChannelError, PluginStartError, VersionMismatchError } from "../errors.js";
import type { Logger } from "../logger.js";
import { checkDuration } from "../runtime/call-options.js";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../version.js";
import { type HandshakeLine, HandshakeLineError, parseHandshakeLine } from "./handshake-line.js";
import { guardLogger } from "./host-logger.js";
import { checkLaunchTarget, checkWorkingDirectory, describeCommand, workingDirectoryProblem } from "./launch-checks.js";
import { parsePluginLogLine } from "./plugin-log-line.js";
import { lendSocketDir, removeSocketDir } from "./socket-dir.js";
import { stopProcess } from "./stop-process.js";

/** How a plugin process ended. */
export interface PluginExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Options of {@link launchPlugin}. */
export interface LaunchOptions {
  command: string;
  args?: readonly string[];
  /** Extra environment; the host's environment is inherited. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Time allowed for the handshake line, in milliseconds (above 0, at most 2^31-1). */
  startTimeoutMs: number;
  supportedVersions: readonly number[];
  transport: "unix" | "tcp";
  clientCertPem?: string;
  logger: Logger;
}

/** A running plugin process whose handshake line has been read. */
export interface PluginProcess {
  readonly child: ChildProcess;
  readonly line: HandshakeLine;
  /** Settles when the process has exited. */
  readonly exited: Promise<PluginExit>;
  /** Set once the process has exited. */
  exit: PluginExit | undefined;
  /** Lines the plugin wrote to stdout after its handshake line (a protocol violation). */
  readonly extraStdout: string[];
  /** The last lines the plugin wrote to stderr, for error messages. */
  stderrTail(): string;
}

// Each running plugin, with the socket folder lent to it (if any).
const running = new Map<ChildProcess, string | undefined>();
let exitHookInstalled = false;

// A host that exits takes its plugins with it, even when it never called close().
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    // SIGKILL, not SIGTERM-then-wait: an 'exit' listener must be synchronous,
    // so there is no later moment to escalate from. A plugin that would
    // ignore SIGTERM would outlive the host; SDK plugins clean up their
    // socket directory on their own side.
    for (const [child, socketDir] of running) {
      child.kill("SIGKILL");
      removeSocketDir(socketDir);
    }
  });
}

function forwardStderr(child: ChildProcess, logger: Logger, tail: string[]) {
  const lines = createInterface({ input: child.stderr!, crlfDelay: Infinity });
  lines.on("line", (line) => {
    tail.push(line);
    if (tail.length > 20) tail.shift();
    const { level, message, fields } = parsePluginLogLine(line);
    // Called as a method: a class-based logger needs its `this`.
    logger[level](message, fields);
  });
}

/**
 * Settles once the process is gone, however that shows: 'exit', or
 * 'close'/'error' when spawn itself failed, and forgets it for the exit hook.
 * @internal exported for tests
 */
export function watchExit(child: ChildProcess): Promise<PluginExit> {
  return new Promise<PluginExit>((resolve) => {
    const done = (exit: PluginExit) => {
      removeSocketDir(running.get(child));
      running.delete(child);
      resolve(exit);
    };
    child.once("exit", (code, signal) => done({ code, signal }));
    // A failed spawn emits 'error' and 'close' but never 'exit'.
    child.once("close", (code: number | null, signal: NodeJS.Signals | null) =>
      done({ code: child.pid === undefined ? null : code, signal }),
    );
    child.on("error", () => {
      if (child.pid === undefined) done({ code: null, signal: null });
    });
  });
}

type FirstLine = { line: string } | { failure: { message: string; hint: string; cause?: unknown } };

/**
 * Starts a plugin process directly (no shell, so signals reach the plugin
 * itself), with go-plugin's environment, and waits for its handshake line.
 * Throws InvalidArgumentError for unusable options, PluginStartError (with
 * the plugin's last stderr lines and a hint) or VersionMismatchError; on any
 * failure the process is stopped (SIGTERM, then SIGKILL after a grace
 * period) before the promise rejects.
 */
export async function launchPlugin(options: LaunchOptions): Promise<PluginProcess> {
  checkLaunchTarget(options, "launchPlugin");
  const startTimeoutMs = checkDuration(options.startTimeoutMs, "options.startTimeoutMs", "launchPlugin", 10_000);
  const describe = describeCommand(options);
  checkWorkingDirectory(options);
  const logger = guardLogger(options.logger);
  installExitHook();
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...options.env,
    [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: options.supportedVersions.join(","),
    ERRAND_PLUGIN_TRANSPORT: options.transport,
    PLUGIN_CLIENT_CERT: options.clientCertPem,
  };
  const socketDir = lendSocketDir(options.transport, env);
  let child: ChildProcess;
  try {
    child = spawn(options.command, options.args ?? [], {
      env,
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      shell: false,
    });
  } catch (error) {
    removeSocketDir(socketDir);
    throw new PluginStartError(`${describe}: could not start: ${(error as Error).message}`, {
      hint: "check the command, its arguments and the environment",
      cause: error,
    });
  }
  running.set(child, socketDir);
  const tail: string[] = [];
  const exited = watchExit(child);
  forwardStderr(child, logger, tail);
  const stderrTail = () => tail.join("\n");

  const extraStdout: string[] = [];
  const lines = createInterface({ input: child.stdout!, crlfDelay: Infinity });
  const fail = async (message: string, hint: string, cause?: unknown): Promise<ChannelError> => {
    await stopProcess(child, exited);
    const output = stderrTail();
    return new PluginStartError(`${describe}: ${message}${output ? `\nplugin stderr:\n${output}` : ""}`, {
      hint,
      cause,
    });
  };

  const first = await firstLine(child, lines, exited, startTimeoutMs, options.cwd);
  if ("failure" in first) throw await fail(first.failure.message, first.failure.hint, first.failure.cause);
  lines.on("line", (line) => {
    extraStdout.push(line);
    logger.warn("plugin wrote to stdout after its handshake line (only the handshake line belongs there)", { line });
  });

  let line: HandshakeLine;
  try {
    line = parseHandshakeLine(first.line);
  } catch (error) {
    throw await fail(
      error instanceof HandshakeLineError ? error.message : String(error),
      "the plugin must print only its handshake line on stdout; send logs to stderr",
      error,
    );
  }
  if (!options.supportedVersions.includes(line.interfaceVersion)) {
    await stopProcess(child, exited);
    throw new VersionMismatchError(
      `${describe} offers interface version ${line.interfaceVersion} (it shares none with this host); this host supports ${options.supportedVersions.join(", ")}`,
      {
        hint: "upgrade the older side so both share an interface version",
      },
    );
  }
  const proc: PluginProcess = { child, line, exited, exit: undefined, extraStdout, stderrTail };
  void exited.then((e) => (proc.exit = e));
  return proc;
}

/** The plugin's first stdout line, or why there is none: it could not start, exited first, or took longer than `startTimeoutMs`. */
function firstLine(
  child: ChildProcess,
  lines: Interface,
  exited: ReturnType<typeof watchExit>,
  startTimeoutMs: number,
  cwd: string | undefined,
): Promise<FirstLine> {
  return new Promise<FirstLine>((resolve) => {
    const timer = setTimeout(
      () =>
        resolve({
          failure: {
            message: `no handshake line within ${startTimeoutMs} ms`,
            hint: "check that the plugin calls serve() and starts quickly, or give it more time (the host's start timeout: startTimeoutMs, or --start-timeout of the channel CLI)",
          },
        }),
      startTimeoutMs,
    );
    const settle = (outcome: FirstLine) => {
      clearTimeout(timer);
      resolve(outcome);
    };
    child.once("error", (error: NodeJS.ErrnoException) => {
      const cwdProblem = error.code === "ENOENT" && cwd !== undefined ? workingDirectoryProblem(cwd) : undefined;
      settle({
        failure: cwdProblem
          ? {
              message: `could not start: ${cwdProblem}`,
              hint: "set cwd to an existing directory, or leave it out",
              cause: error,
            }
          : {
              message: `could not start: ${error.message}`,
              hint: "check the command path and that it is executable",
              cause: error,
            },
      });
    });
    void exited.then((e) =>
      settle({
        failure: {
          message: `exited (code ${e.code}, signal ${e.signal}) before printing its handshake line`,
          hint: "run the plugin with ERRAND_PLUGIN_MAGIC_COOKIE=errand-notification-channel to see its error",
        },
      }),
    );
    lines.once("line", (line) => settle({ line }));
  });
}
