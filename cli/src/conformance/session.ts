import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import {
  CALL_TARGET_MS,
  createClients,
  type HandshakeLine,
  type HandshakeResponse,
  lendSocketDir,
  MAGIC_COOKIE_KEY,
  MAGIC_COOKIE_VALUE,
  type PluginClients,
  parseHandshakeLine,
  removeSocketDir,
  settlesWithin,
  unaryCall,
} from "@errand/channel-sdk/protocol";
import { credentials, status as GrpcStatus, type ServiceError } from "@grpc/grpc-js";
import { trackPlugin } from "./plugin-processes.js";
import type { PluginTarget } from "./plugin-target.js";

/** How a plugin process ended, with when. */
export interface SessionExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  at: number;
}

/** Options of {@link PluginSession.spawn}. */
export interface SpawnOptions {
  /** Set the magic cookie (default true). */
  cookie?: boolean;
  env?: Record<string, string>;
  /** PLUGIN_PROTOCOL_VERSIONS the host offers (default "1"). */
  protocolVersions?: string;
}

/**
 * A plugin process under test: every stdout line, the stderr tail and the
 * exit are recorded so checks can judge them.
 */
export class PluginSession {
  readonly child: ChildProcess;
  readonly stdoutLines: string[] = [];
  readonly startedAt = Date.now();
  exit: SessionExit | undefined;
  readonly exited: Promise<SessionExit>;
  line: HandshakeLine | undefined;
  /** Why the process could not be started (spawn ENOENT, EACCES, ...), if it could not. */
  spawnError: Error | undefined;
  private readonly stop: (graceMs?: number) => Promise<void>;
  private clientsCache: PluginClients | undefined;
  private readonly tail: string[] = [];
  private readonly lineWaiters = new Set<() => void>();

  private constructor(target: PluginTarget, options: SpawnOptions) {
    const env: Record<string, string | undefined> = {
      ...process.env,
      ...options.env,
      PLUGIN_PROTOCOL_VERSIONS: options.protocolVersions ?? "1",
      ERRAND_PLUGIN_TRANSPORT: "unix",
      [MAGIC_COOKIE_KEY]: options.cookie === false ? undefined : MAGIC_COOKIE_VALUE,
    };
    // As the SDK's host does: a plugin that had to be SIGKILLed (one that ignores Shutdown and SIGTERM) leaves nothing.
    const socketDir = lendSocketDir("unix", env);
    // Its own process group, so that stopping it also stops what it started (a shell script's children).
    this.child = spawn(target.command, target.args, {
      cwd: target.cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        removeSocketDir(socketDir);
        this.exit = { code, signal, at: Date.now() };
        resolve(this.exit);
        for (const wake of this.lineWaiters) wake();
      });
      this.child.once("error", (error) => {
        removeSocketDir(socketDir);
        this.spawnError = error;
        this.tail.push(`could not start: ${error.message}`);
        this.exit = { code: null, signal: null, at: Date.now() };
        resolve(this.exit);
        for (const wake of this.lineWaiters) wake();
      });
    });
    this.stop = trackPlugin(this.child, this.exited);
    createInterface({ input: this.child.stdout!, crlfDelay: Infinity }).on("line", (line) => {
      this.stdoutLines.push(line);
      for (const wake of this.lineWaiters) wake();
    });
    createInterface({ input: this.child.stderr!, crlfDelay: Infinity }).on("line", (line) => {
      this.tail.push(line);
      if (this.tail.length > 15) this.tail.shift();
    });
  }

  /** Starts the plugin process. */
  static spawn(target: PluginTarget, options: SpawnOptions = {}): PluginSession {
    return new PluginSession(target, options);
  }

  /** The last lines the plugin wrote to stderr. */
  stderrTail(): string {
    return this.tail.join("\n");
  }

  /** Resolves with the first stdout line, or undefined when the process exits or `timeoutMs` passes. */
  firstLine(timeoutMs: number): Promise<string | undefined> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.stdoutLines.length > 0 || this.exit) {
          clearTimeout(timer);
          this.lineWaiters.delete(check);
          // A process that exits may still have its line in the pipe; give it a tick.
          setTimeout(() => resolve(this.stdoutLines[0]), this.stdoutLines.length > 0 ? 0 : 30);
        }
      };
      const timer = setTimeout(() => {
        this.lineWaiters.delete(check);
        resolve(this.stdoutLines[0]);
      }, timeoutMs);
      this.lineWaiters.add(check);
      check();
    });
  }

  /** Waits for and parses the handshake line; throws a message for the user. */
  async handshakeLine(timeoutMs: number): Promise<HandshakeLine> {
    const first = await this.firstLine(timeoutMs);
    if (first === undefined) {
      if (this.spawnError) throw new Error(`the plugin could not be started: ${this.spawnError.message}`);
      throw new Error(
        this.exit
          ? `the plugin exited (code ${this.exit.code}, signal ${this.exit.signal}) without printing a handshake line`
          : `no line on stdout within ${timeoutMs} ms`,
      );
    }
    this.line = parseHandshakeLine(first);
    return this.line;
  }

  /** gRPC clients on the plugin's address (after {@link handshakeLine}). */
  get clients(): PluginClients {
    if (!this.line) throw new Error("no handshake line yet");
    this.clientsCache ??= createClients(
      this.line.network === "unix" ? `unix:${this.line.address}` : this.line.address,
      credentials.createInsecure(),
    );
    return this.clientsCache;
  }

  /** Calls Handshake. Rejects with the raw ServiceError. */
  handshake(
    config: Record<string, unknown>,
    secrets: Record<string, string>,
    interfaceVersion = 1,
    timeoutMs = CALL_TARGET_MS,
  ): Promise<HandshakeResponse> {
    return unaryCall(
      this.clients.channel,
      "handshake",
      {
        interfaceVersion,
        supportedVersions: [interfaceVersion],
        config,
        secrets,
        hostName: "channel-test",
        hostVersion: "0.1.0",
      },
      { timeoutMs },
    );
  }

  /** Resolves true when the process has exited within `ms`. */
  async exitsWithin(ms: number): Promise<boolean> {
    return this.exit !== undefined || settlesWithin(this.exited, ms);
  }

  /** Ends the process for good (SIGTERM, a grace, SIGKILL) and closes the clients. */
  async kill(): Promise<void> {
    this.clientsCache?.close();
    await this.stop();
  }
}

/** A readable name of a gRPC status code. */
export function statusName(code: number | undefined): string {
  if (code === undefined) return "no status";
  return (GrpcStatus as unknown as Record<number, string>)[code] ?? String(code);
}

/** The status code and details of anything a call rejected with. */
export function describeCallError(error: unknown): { code: number | undefined; text: string } {
  const e = error as Partial<ServiceError>;
  const code = typeof e.code === "number" ? e.code : undefined;
  return { code, text: `${statusName(code)}${e.details ? `: ${e.details}` : e.message ? `: ${e.message}` : ""}` };
}
