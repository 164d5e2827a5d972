import {
  type ChannelError,
  type Logger,
  PluginExitedError,
  toChannelError,
  UnavailableError,
} from "@errand/channel-sdk";
import { type Channel, type PluginExit, RemoteChannel } from "@errand/channel-sdk/host";
import type { Backoff } from "./backoff.js";
import { isSetupFailure } from "./open-channel.js";

/** Where a channel is in its life. */
export type ChannelState = "idle" | "starting" | "up" | "down" | "closed";

/** What a channel said about itself at its last successful start. */
export interface ChannelIdentity {
  name: string;
  version: string;
  interfaceVersion: number;
}

/** Options of {@link SupervisedChannel}. */
export interface SupervisedChannelOptions {
  label: string;
  /** A plugin process or an in-process (built-in) channel: only the error a call gets while down differs. */
  kind: "plugin" | "in-process";
  /** Starts a fresh instance (see createChannelOpener). */
  open: () => Promise<Channel>;
  backoff: Backoff;
  logger: Logger;
  /** Called after each successful restart. */
  onRestart: () => void;
}

/**
 * One configured channel, kept running: started once, restarted after a
 * crash with exponential backoff and full jitter. While it is down,
 * `current` is undefined and callers fail fast with {@link downError}.
 */
export class SupervisedChannel {
  state: ChannelState = "idle";
  identity: ChannelIdentity | undefined;
  restarts = 0;
  /** Why the channel is down: its exit or its last failed start. */
  downReason: string | undefined;
  private channel: Channel | undefined;
  private attempt = 0;
  private upSince = 0;
  private timer: NodeJS.Timeout | undefined;
  /** A start in progress; settles once its channel is in use or closed again. */
  private pending: Promise<void> | undefined;
  private readonly options: SupervisedChannelOptions;

  constructor(options: SupervisedChannelOptions) {
    this.options = options;
  }

  /** The running channel, or undefined while it is down. */
  get current(): Channel | undefined {
    return this.state === "up" ? this.channel : undefined;
  }

  /** The plugin's process id (plugins only). */
  get pid(): number | undefined {
    return this.channel instanceof RemoteChannel ? this.channel.pid : undefined;
  }

  /**
   * First start. Rejects with the channel's error when the configuration is
   * wrong (see isSetupFailure); any other failure leaves the channel down
   * and retried in the background.
   */
  async start(): Promise<void> {
    if (this.state !== "idle") return;
    this.state = "starting";
    let failure: unknown;
    this.pending = this.options.open().then(
      (channel) => this.use(channel),
      (error: unknown) => {
        failure = error;
      },
    );
    await this.pending;
    this.pending = undefined;
    // close() may have run meanwhile; TypeScript cannot see that state changed.
    if (failure === undefined || (this.state as ChannelState) === "closed") return;
    if (isSetupFailure(failure)) {
      this.state = "closed";
      throw failure;
    }
    this.failedStart(failure);
  }

  /**
   * The plugin's gRPC health check on the running process (see
   * RemoteChannel.checkHealth). Rejects with {@link downError} while the
   * channel is down; an in-process channel has no health service to ask.
   */
  checkHealth(timeoutMs: number, signal: AbortSignal): Promise<void> {
    const channel = this.current;
    if (channel === undefined) return Promise.reject(this.downError());
    if (!(channel instanceof RemoteChannel))
      return Promise.reject(
        new UnavailableError(`channel "${this.options.label}" runs in-process and has no health check`),
      );
    return channel.checkHealth(timeoutMs, signal);
  }

  /** The error a call gets while the channel is down. */
  downError(): ChannelError {
    if (this.state === "closed") return new UnavailableError(`channel "${this.options.label}" is closed`);
    const reason = this.downReason ?? "it has not started";
    const hint = "the controller restarts it on its own; its log lines (with this channel's label) say why it stopped";
    return this.options.kind === "plugin"
      ? new PluginExitedError(`channel "${this.options.label}" is not running (${reason})`, { hint })
      : new UnavailableError(`channel "${this.options.label}" is not running (${reason})`, { hint });
  }

  /** Stops restarting, then stops the channel (a plugin: Shutdown, SIGTERM, SIGKILL). */
  async close(): Promise<void> {
    this.state = "closed";
    clearTimeout(this.timer);
    await this.pending;
    const channel = this.channel;
    this.channel = undefined;
    await channel
      ?.close()
      .catch((error: unknown) => this.options.logger.warn("channel did not close cleanly", { error }));
  }

  private use(channel: Channel): Promise<void> | void {
    if (this.state === "closed") return channel.close().catch(() => {});
    this.channel = channel;
    this.identity = { name: channel.name, version: channel.version, interfaceVersion: channel.interfaceVersion };
    this.state = "up";
    this.upSince = Date.now();
    this.downReason = undefined;
    if (channel instanceof RemoteChannel) channel.on("exit", (exit) => this.exited(channel, exit));
  }

  private exited(channel: RemoteChannel, exit: PluginExit & { expected: boolean }): void {
    if (exit.expected || this.state === "closed" || this.channel !== channel) return;
    // A plugin that ran for a while before it crashed starts over from the shortest delay.
    if (Date.now() - this.upSince >= this.options.backoff.maxMs) this.attempt = 0;
    this.state = "down";
    this.downReason = `its process exited with code ${exit.code ?? "none"}, signal ${exit.signal ?? "none"}`;
    this.scheduleRestart();
  }

  private failedStart(error: unknown): void {
    const channelError = toChannelError(error);
    this.state = "down";
    this.downReason = `its start failed: ${channelError.code}: ${channelError.message.split("\n")[0]}`;
    this.options.logger.error("notification channel failed to start", { error: channelError });
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    const delay = this.options.backoff.delay(this.attempt++);
    this.options.logger.warn("restarting notification channel", {
      restart_in_ms: delay,
      attempt: this.attempt,
      reason: this.downReason,
    });
    // Unref'd: a pending restart never keeps a finished process (a CLI command) alive.
    this.timer = setTimeout(() => this.restart(), delay).unref();
  }

  private restart(): void {
    if (this.state === "closed") return;
    this.pending = this.options.open().then(
      (channel) => {
        if (this.state === "closed") return channel.close().catch(() => {});
        this.restarts++;
        this.use(channel);
        this.options.logger.info("notification channel restarted", { pid: this.pid, restarts: this.restarts });
        this.options.onRestart();
      },
      (error: unknown) => {
        if (this.state !== "closed") this.failedStart(error);
      },
    );
    void this.pending.finally(() => (this.pending = undefined));
  }
}
