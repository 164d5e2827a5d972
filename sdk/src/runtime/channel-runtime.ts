import type { ChannelConfig, ChannelDefinition, ChannelSecrets, NotifyResult } from "../channel.js";
import { validateConfig } from "../config-schema.js";
import { CancelledError, InvalidConfigError, toChannelError } from "../errors.js";
import type { Logger } from "../logger.js";
import { checkNotificationCall } from "./call-checks.js";
import { CallController } from "./call-controller.js";
import type { NotificationCall } from "./notification-call.js";
import { runWithSignal } from "./run-with-signal.js";

export type { NotificationCall };

/**
 * One configured instance of a channel definition: runs `init` once, then
 * dispatches calls to the handlers with a context, an abort signal and a
 * deadline that is enforced even when a handler ignores its signal.
 * Shared by the plugin server and the in-process loader, so both behave alike.
 */
export class ChannelRuntime<State, Config = ChannelConfig> {
  private state: State | undefined;
  // What the handlers see: the config schema's output, or the config as given.
  private validConfig: Config | undefined;
  private initialized = false;
  private closed = false;
  private readonly inFlight = new Set<AbortController>();

  constructor(
    readonly definition: ChannelDefinition<State, Config>,
    private config: ChannelConfig,
    private secrets: ChannelSecrets,
    private readonly logger: Logger,
  ) {}

  /** Number of calls currently running. */
  get activeCalls(): number {
    return this.inFlight.size;
  }

  /**
   * Checks the config against the definition's `configSchema`, then runs
   * `init` with the result and the secrets (again, if called twice).
   */
  async initialize(config: ChannelConfig = this.config, secrets: ChannelSecrets = this.secrets): Promise<void> {
    if (this.initialized) await this.closeState();
    this.config = config;
    this.secrets = secrets;
    const { configSchema, init, name } = this.definition;
    // Without a schema the config reaches init as given, as before schemas existed.
    const valid = configSchema ? await validateConfig(configSchema, config, { label: name }) : (config as Config);
    this.validConfig = valid;
    try {
      this.state = init
        ? await init.call(this.definition, valid, secrets, { logger: this.logger })
        : (undefined as State);
    } catch (error) {
      const channelError = toChannelError(error);
      // Anything init throws that is not already typed is a configuration problem.
      if (channelError.code === "ERR_INTERNAL") {
        throw new InvalidConfigError(`channel ${this.definition.name} failed to initialize: ${channelError.message}`, {
          cause: error,
        });
      }
      throw channelError;
    }
    this.initialized = true;
  }

  /** The secrets the channel was initialized with (for log redaction). */
  get currentSecrets(): ChannelSecrets {
    return this.secrets;
  }

  get isInitialized(): boolean {
    return this.initialized;
  }

  /**
   * Runs one notification. `controller` belongs to the caller, whose deadline
   * or cancellation aborts it; the runtime aborts it too on shutdown. Rejects
   * with a typed ChannelError; settles no later than the abort, whatever the
   * handler does. A malformed call is refused before the handler runs (see
   * checkNotificationCall); `label` prefixes that error's message.
   */
  async dispatch(
    call: NotificationCall,
    controller: AbortController,
    label: string = call.kind,
  ): Promise<NotifyResult> {
    if (this.closed) throw new CancelledError(`channel ${this.definition.name} is closed`);
    const checked = checkNotificationCall(call, label);
    this.inFlight.add(controller);
    try {
      const work = () => this.invoke(checked, controller);
      // A CallController makes its signal only if the handler reads it (see CallController).
      const result = await (controller instanceof CallController
        ? controller.race(work)
        : runWithSignal(work, controller.signal));
      return result ?? {};
    } finally {
      this.inFlight.delete(controller);
    }
  }

  private invoke(call: NotificationCall, controller: AbortController) {
    const base = this.logger;
    let logger: Logger | undefined;
    const ctx = {
      // Read on use: a CallController's signal is made only then.
      get signal(): AbortSignal {
        return controller.signal;
      },
      taskRunId: call.taskRunId,
      engine: call.kind === "notifyStart" ? call.engine : "",
      config: this.validConfig as Config,
      secrets: this.secrets,
      state: this.state as State,
      // Made on first use: most calls never log, and a child logger encodes its fields.
      get logger(): Logger {
        logger ??= base.child({ call: call.kind, taskRunId: call.taskRunId || undefined });
        return logger;
      },
    };
    switch (call.kind) {
      case "notify":
        return this.definition.notify(call.message, call.ticket, ctx);
      case "notifyStart":
        return this.definition.notifyStart(call.ticket, ctx);
      case "notifyComplete":
        return this.definition.notifyComplete(call.ticket, call.result, ctx);
    }
  }

  /** Aborts every running call with `reason`. */
  abortAll(reason: Error): void {
    for (const controller of this.inFlight) controller.abort(reason);
  }

  /** Aborts running calls and runs the definition's `close`. */
  async close(reason: Error): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.abortAll(reason);
    await this.closeState();
  }

  private async closeState(): Promise<void> {
    if (!this.initialized || !this.definition.close) return;
    this.initialized = false;
    try {
      await this.definition.close(this.state as State);
    } catch (error) {
      this.logger.warn("channel close failed", { error });
    }
  }
}
