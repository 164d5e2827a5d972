import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { PluginStartError, VersionMismatchError } from "../errors.js";
import type { Logger } from "../logger.js";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../version.js";
import { type HandshakeLine, HandshakeLineError, parseHandshakeLine } from "./handshake-line.js";

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

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

// A host that exits takes its plugins with it, even when it never called close().
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const child of running) child.kill("SIGKILL");
  });
}

function forwardStderr(child: ChildProcess, logger: Logger, tail: string[]) {
  const lines = createInterface({ input: child.stderr!, crlfDelay: Infinity });
  lines.on("line", (line) => {
    tail.push(line);
    if (tail.length > 20) tail.shift();
    let record: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = JSON.parse(line);
      if (parsed && typeof parsed === "object") record = parsed as Record<string, unknown>;
    } catch {
      // plain text: logged as is
    }
    if (!record) {
      logger.info(line, { stream: "stderr" });
      return;
    }
    const { level, msg, time: _time, ...fields } = record;
    const log = level === "error" || level === "warn" || level === "debug" ? logger[level] : logger.info;
    log(typeof msg === "string" ? msg : line, fields);
  });
}

/**
 * Starts a plugin process directly (no shell, so signals reach the plugin
 * itself), with go-plugin's environment, and waits for its handshake line.
 * Throws PluginStartError (with the plugin's last stderr lines) or
 * VersionMismatchError; the process is killed on any failure.
 */
export async function launchPlugin(options: LaunchOptions): Promise<PluginProcess> {
  installExitHook();
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...options.env,
    [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: options.supportedVersions.join(","),
    ERRAND_PLUGIN_TRANSPORT: options.transport,
    PLUGIN_CLIENT_CERT: options.clientCertPem,
  };
  const describe = [options.command, ...(options.args ?? [])].join(" ");
  const child = spawn(options.command, options.args ?? [], {
    env,
    cwd: options.cwd,
    stdio: ["ignore", "pipe", "pipe"],
    shell: false,
  });
  running.add(child);
  const tail: string[] = [];
  let exit: PluginExit | undefined;
  const exited = new Promise<PluginExit>((resolve) => {
    child.once("exit", (code, signal) => {
      running.delete(child);
      exit = { code, signal };
      resolve(exit);
    });
  });
  forwardStderr(child, options.logger, tail);
  const stderrTail = () => tail.join("\n");

  const extraStdout: string[] = [];
  const lines = createInterface({ input: child.stdout!, crlfDelay: Infinity });
  const fail = (message: string, hint: string, cause?: unknown) => {
    child.kill("SIGKILL");
    const output = stderrTail();
    return new PluginStartError(`${describe}: ${message}${output ? `\nplugin stderr:\n${output}` : ""}`, { hint, cause });
  };

  const firstLine = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(fail(`no handshake line within ${options.startTimeoutMs} ms`, "check that the plugin calls serve() and starts quickly, or raise startTimeoutMs")),
      options.startTimeoutMs,
    );
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(fail(`could not start: ${error.message}`, "check the command path and that it is executable", error));
    });
    void exited.then((e) => {
      clearTimeout(timer);
      // Give stderr a moment to drain so the message shows why it exited.
      setTimeout(
        () => reject(fail(`exited (code ${e.code}, signal ${e.signal}) before printing its handshake line`, "run the plugin with ERRAND_PLUGIN_MAGIC_COOKIE=errand-notification-channel to see its error")),
        20,
      );
    });
    lines.once("line", (line) => {
      clearTimeout(timer);
      resolve(line);
    });
  });
  lines.on("line", (line) => {
    extraStdout.push(line);
    options.logger.warn("plugin wrote to stdout after its handshake line (only the handshake line belongs there)", { line });
  });

  let line: HandshakeLine;
  try {
    line = parseHandshakeLine(firstLine);
  } catch (error) {
    throw fail(error instanceof HandshakeLineError ? error.message : String(error), "the plugin must print only its handshake line on stdout; send logs to stderr", error);
  }
  if (!options.supportedVersions.includes(line.interfaceVersion)) {
    child.kill("SIGKILL");
    throw new VersionMismatchError(
      `${describe} offers interface version ${line.interfaceVersion} (it shares none with this host); this host supports ${options.supportedVersions.join(", ")}`,
      { hint: "upgrade the older side so both share an interface version" },
    );
  }
  const proc: PluginProcess = { child, line, exited, exit, extraStdout, stderrTail };
  void exited.then((e) => (proc.exit = e));
  return proc;
}
