import { EventEmitter } from "node:events";
import { type ServiceError, status as GrpcStatus } from "@grpc/grpc-js";
import type { CallOptions, Channel, NotifyResult, StartCallOptions, TaskResult, Ticket } from "../channel.js";
import { CancelledError, PluginExitedError, toChannelError } from "../errors.js";
import type { HandshakeResponse } from "../gen/errand/v1/common.js";
import type { NotificationChannelClient, NotifyRequest } from "../gen/errand/v1/notifications.js";
import { fromServiceError } from "../grpc/status-mapping.js";
import type { Logger } from "../logger.js";
import { CALL_TARGET_MS } from "../version.js";
import { type PluginClients, unaryCall } from "./grpc-clients.js";
import type { PluginExit, PluginProcess } from "./plugin-process.js";

interface RemoteChannelParts {
  proc: PluginProcess;
  clients: PluginClients;
  handshake: HandshakeResponse;
  logger: Logger;
  shutdown: () => Promise<void>;
}

/** Events of a {@link RemoteChannel}. */
export interface RemoteChannelEvents {
  /** The plugin process exited; `expected` is true when close() caused it. */
  exit: [exit: PluginExit & { expected: boolean }];
}

/**
 * A channel served by a plugin process, returned by `connectChannel`. Same
 * shape as an in-process channel; adds the process id, exit events and a
 * bounded `close()`.
 */
export class RemoteChannel extends EventEmitter<RemoteChannelEvents> implements Channel {
  readonly name: string;
  readonly version: string;
  readonly interfaceVersion: number;
  /** Interface versions the plugin reported in its Handshake. */
  readonly pluginVersions: readonly number[];
  private readonly parts: RemoteChannelParts;
  private closing: Promise<void> | undefined;

  constructor(parts: RemoteChannelParts) {
    super();
    this.parts = parts;
    this.name = parts.handshake.name;
    this.version = parts.handshake.version;
    this.interfaceVersion = parts.handshake.interfaceVersion;
    this.pluginVersions = parts.handshake.supportedVersions;
    void parts.proc.exited.then((exit) => {
      const expected = this.closing !== undefined;
      if (!expected) parts.logger.error("plugin exited unexpectedly", { ...exit, stderr: parts.proc.stderrTail() || undefined });
      parts.clients.close();
      this.emit("exit", { ...exit, expected });
    });
  }

  /** The plugin's process id. */
  get pid(): number | undefined {
    return this.parts.proc.child.pid;
  }

  /** Set once the process has exited. */
  get exitStatus(): PluginExit | undefined {
    return this.parts.proc.exit;
  }

  /** Lines the plugin printed on stdout after its handshake line (should be none). */
  get strayStdout(): readonly string[] {
    return this.parts.proc.extraStdout;
  }

  notify(message: string, ticket: Ticket, options: CallOptions = {}): Promise<NotifyResult> {
    return this.call("notify", { message, ticket, taskRunId: options.taskRunId ?? "" }, options);
  }

  notifyStart(ticket: Ticket, options: StartCallOptions = {}): Promise<NotifyResult> {
    return this.call("notifyStart", { ticket, taskRunId: options.taskRunId ?? "", engine: options.engine ?? "" }, options);
  }

  notifyComplete(ticket: Ticket, result: TaskResult, options: CallOptions = {}): Promise<NotifyResult> {
    return this.call("notifyComplete", { ticket, result, taskRunId: options.taskRunId ?? "" }, options);
  }

  private async call<M extends "notify" | "notifyStart" | "notifyComplete">(
    method: M,
    request: Parameters<NotificationChannelClient[M]>[0],
    options: CallOptions,
  ): Promise<NotifyResult> {
    const label = `${this.name}.${method}`;
    if (this.parts.proc.exit) throw this.exitedError(label);
    if (this.closing) throw new CancelledError(`${label}: the channel is closed`);
    try {
      const response = await unaryCall(this.parts.clients.channel, method as "notify", request as NotifyRequest, {
        timeoutMs: options.timeoutMs ?? CALL_TARGET_MS,
        signal: options.signal,
      });
      return response.deliveryId ? { deliveryId: response.deliveryId } : {};
    } catch (error) {
      // A call cut short by the process dying reports the death, not
      // UNAVAILABLE; the exit event can trail the broken connection a little.
      if ((error as ServiceError).code === GrpcStatus.UNAVAILABLE) {
        await Promise.race([this.parts.proc.exited, new Promise((resolve) => setTimeout(resolve, 250))]);
      }
      if (this.parts.proc.exit && !this.closing) throw this.exitedError(label);
      if (options.signal?.aborted) throw toChannelError(options.signal.reason);
      throw (error as ServiceError).code === undefined ? toChannelError(error) : fromServiceError(error as ServiceError, label);
    }
  }

  private exitedError(label: string): PluginExitedError {
    const exit = this.parts.proc.exit;
    const tail = this.parts.proc.stderrTail();
    return new PluginExitedError(
      `${label}: the plugin process exited (code ${exit?.code ?? "?"}, signal ${exit?.signal ?? "none"})${tail ? `\nplugin stderr:\n${tail}` : ""}`,
      { hint: "see the plugin's stderr above; the controller restarts crashed plugins" },
    );
  }

  /**
   * Stops the plugin: GRPCController/Shutdown, then SIGTERM after
   * `graceMs`, then SIGKILL. Resolves once the process has exited.
   */
  close(graceMs = 2000): Promise<void> {
    this.closing ??= this.stop(graceMs);
    return this.closing;
  }

  private async stop(graceMs: number): Promise<void> {
    const { proc } = this.parts;
    if (proc.exit) return;
    const exited = proc.exited.then(() => true);
    const within = (ms: number) => Promise.race([exited, new Promise<false>((r) => setTimeout(r, ms, false))]);
    await this.parts.shutdown().catch((error: unknown) => this.parts.logger.debug("Shutdown RPC failed", { error }));
    if (await within(graceMs)) return;
    this.parts.logger.warn("plugin ignored Shutdown; sending SIGTERM", { pid: this.pid });
    proc.child.kill("SIGTERM");
    if (await within(1000)) return;
    this.parts.logger.warn("plugin ignored SIGTERM; sending SIGKILL", { pid: this.pid });
    proc.child.kill("SIGKILL");
    await exited;
  }
}
