import { EventEmitter } from "node:events";
import { status as GrpcStatus, type ServiceError } from "@grpc/grpc-js";
import type { CallOptions, Channel, NotifyResult, StartCallOptions, TaskResult, Ticket } from "../channel.js";
import { CancelledError, type ChannelError, PluginExitedError, toChannelError, UnavailableError } from "../errors.js";
import type { HandshakeResponse } from "../gen/errand/v1/common.js";
import { HealthCheckResponse_ServingStatus as Serving } from "../gen/grpc/health/v1/health.js";
import { fromServiceError } from "../grpc/status-mapping.js";
import type { Logger } from "../logger.js";
import { checkNotificationCall } from "../runtime/call-checks.js";
import { checkCallOptions, checkDuration } from "../runtime/call-options.js";
import type { NotificationCall } from "../runtime/channel-runtime.js";
import { maskError } from "../secret-mask-errors.js";
import { HEALTH_SERVICE_NAME } from "../version.js";
import { type PluginClients, unaryCall } from "./grpc-clients.js";
import type { PluginExit, PluginProcess } from "./plugin-process.js";
import { sendCheckedCall } from "./send-notification.js";
import { settlesWithin } from "./stop-process.js";

interface RemoteChannelParts {
  proc: PluginProcess;
  clients: PluginClients;
  handshake: HandshakeResponse;
  logger: Logger;
  shutdown: () => Promise<void>;
  /** Secret values to mask in the errors calls return. */
  secrets?: readonly string[];
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
      if (!expected)
        parts.logger.error("plugin exited unexpectedly", { ...exit, stderr: parts.proc.stderrTail() || undefined });
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

  notify(message: string, ticket: Ticket, options?: CallOptions): Promise<NotifyResult> {
    return this.call("notify", options, ({ taskRunId }) => ({ kind: "notify", message, ticket, taskRunId }));
  }

  notifyStart(ticket: Ticket, options?: StartCallOptions): Promise<NotifyResult> {
    return this.call("notifyStart", options, ({ taskRunId, engine }) => ({
      kind: "notifyStart",
      ticket,
      taskRunId,
      engine,
    }));
  }

  notifyComplete(ticket: Ticket, result: TaskResult, options?: CallOptions): Promise<NotifyResult> {
    return this.call("notifyComplete", options, ({ taskRunId }) => ({
      kind: "notifyComplete",
      ticket,
      result,
      taskRunId,
    }));
  }

  private async call(
    method: NotificationCall["kind"],
    options: StartCallOptions | undefined,
    toCall: (o: { taskRunId: string; engine: string }) => NotificationCall,
  ): Promise<NotifyResult> {
    const label = `${this.name}.${method}`;
    // The same checks as an in-process call, before anything is sent: the
    // wire would otherwise change or refuse the values less clearly.
    const { signal, taskRunId, engine, timeoutMs } = checkCallOptions(options, label);
    const checked = checkNotificationCall(toCall({ taskRunId, engine }), label);
    if (this.parts.proc.exit) throw this.masked(this.exitedError(label));
    if (this.closing) throw new CancelledError(`${label}: the channel is closed`);
    try {
      const response = await sendCheckedCall(this.parts.clients.channel, checked, { timeoutMs, signal });
      return response.deliveryId ? { deliveryId: response.deliveryId } : {};
    } catch (error) {
      throw await this.callError(error, label, signal);
    }
  }

  /**
   * Asks the plugin's grpc.health.v1 service (`plugin`, go-plugin's name)
   * whether it serves, as connectChannel does before the Handshake. Resolves
   * when it answers SERVING; rejects with UnavailableError when it answers
   * anything else (a plugin may report NOT_SERVING while its target is
   * down), PluginExitedError once its process has exited, CancelledError
   * after close() or when `signal` aborts, DeadlineExceededError after
   * `timeoutMs` (default 5000; above 0, at most 2^31-1, else
   * InvalidArgumentError).
   */
  async checkHealth(timeoutMs?: number, signal?: AbortSignal): Promise<void> {
    const label = `${this.name}.checkHealth`;
    const timeout = checkDuration(timeoutMs, "timeoutMs", label, 5000);
    if (this.parts.proc.exit) throw this.masked(this.exitedError(label));
    if (this.closing) throw new CancelledError(`${label}: the channel is closed`);
    let status: Serving;
    try {
      ({ status } = await unaryCall(
        this.parts.clients.health,
        "check",
        { service: HEALTH_SERVICE_NAME },
        { timeoutMs: timeout, signal },
      ));
    } catch (error) {
      throw await this.callError(error, label, signal);
    }
    if (status !== Serving.SERVING) {
      throw new UnavailableError(
        `${label}: the plugin's health service reports ${Serving[status] ?? status}, not SERVING`,
        {
          hint: "the plugin says it cannot serve now (its own check of its target failed); see its log lines",
        },
      );
    }
  }

  /** The error a failed call rejects with. */
  private async callError(error: unknown, label: string, signal: AbortSignal | undefined): Promise<ChannelError> {
    // A call cut short by the process dying reports the death, not
    // UNAVAILABLE; the exit event can trail the broken connection a little.
    if ((error as ServiceError).code === GrpcStatus.UNAVAILABLE) await settlesWithin(this.parts.proc.exited, 250);
    if (this.parts.proc.exit && !this.closing) return this.masked(this.exitedError(label));
    if (signal?.aborted) return toChannelError(signal.reason);
    return this.masked(
      (error as ServiceError).code === undefined
        ? toChannelError(error)
        : fromServiceError(error as ServiceError, label),
    );
  }

  // Defence in depth: an SDK plugin masks its secrets itself, but a plugin's
  // message or stderr tail may still quote one.
  private masked(error: ChannelError): ChannelError {
    return this.parts.secrets?.length ? maskError(error, this.parts.secrets) : error;
  }

  private exitedError(label: string): PluginExitedError {
    const exit = this.parts.proc.exit;
    const tail = this.parts.proc.stderrTail();
    return new PluginExitedError(
      `${label}: the plugin process exited (code ${exit?.code ?? "?"}, signal ${exit?.signal ?? "none"})${tail ? `\nplugin stderr:\n${tail}` : ""}`,
      {
        hint: "see the plugin's stderr above; the controller restarts crashed plugins",
      },
    );
  }

  /**
   * Stops the plugin: GRPCController/Shutdown, then SIGTERM after
   * `graceMs` (default 2000; above 0, at most 2^31-1, else the promise
   * rejects with InvalidArgumentError and nothing is stopped), then SIGKILL
   * after one more second. Resolves once the process has exited, leaving no
   * timer behind.
   */
  close(graceMs?: number): Promise<void> {
    if (!this.closing) {
      let grace: number;
      try {
        grace = checkDuration(graceMs, "graceMs", `${this.name}.close`, 2000);
      } catch (error) {
        return Promise.reject(error);
      }
      this.closing = this.stop(grace);
    }
    return this.closing;
  }

  private async stop(graceMs: number): Promise<void> {
    const { proc } = this.parts;
    if (proc.exit) return;
    await this.parts.shutdown().catch((error: unknown) => this.parts.logger.debug("Shutdown RPC failed", { error }));
    if (await settlesWithin(proc.exited, graceMs)) return;
    this.parts.logger.warn("plugin ignored Shutdown; sending SIGTERM", { pid: this.pid });
    proc.child.kill("SIGTERM");
    if (await settlesWithin(proc.exited, 1000)) return;
    this.parts.logger.warn("plugin ignored SIGTERM; sending SIGKILL", { pid: this.pid });
    proc.child.kill("SIGKILL");
    await proc.exited;
  }
}
