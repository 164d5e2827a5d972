import type { Logger } from "@errand/channel-sdk";
import type { Registry } from "prom-client";
import type { ChannelEntryConfig } from "../config/controller-config.js";
import type { RunObserver } from "../runs/run-event.js";
import type { FailureInfo } from "./channel-health.js";
import type { ChannelState } from "./supervised-channel.js";

/** Options of createNotifier. */
export interface NotifierOptions {
  /** `notifications.channels`, resolved by the config loader. */
  channels: readonly ChannelEntryConfig[];
  /** Resolved secret values by name; each entry gets those its `secretNames` list. */
  secrets: Readonly<Record<string, string>>;
  /** Bound of each call, ms; default 5000 (spec 8). */
  callTimeoutMs?: number;
  /** Failed calls in a row after which a channel is unhealthy; default 3. */
  unhealthyAfter?: number;
  /** Mean time between health checks of an unhealthy plugin channel, ms (±25 % jitter); default 30 000. */
  probeIntervalMs?: number;
  /** Progress messages per run per minute; default 6, 0 for none. */
  progressPerMinute?: number;
  logger: Logger;
  /** Where the agent_plugin_* metrics are registered (once per registry). */
  registry: Registry;
  /** `plugins.dir`: searched for plugin packages before the controller's node_modules. */
  pluginsDir?: string | undefined;
  /** Restart delays of crashed plugins; default 500 ms doubling up to 30 s, with full jitter. */
  backoff?: { initialMs: number; maxMs: number };
  /** Time a plugin gets to start and complete its Handshake, ms; default 10 000. */
  startTimeoutMs?: number;
  /** The controller's package folder, where the node_modules search starts; default the installed controller's. */
  controllerDir?: string;
}

/** Where a channel comes from, for people and for `--json`. */
export interface ChannelSourceInfo {
  kind: "builtin" | "package" | "command";
  /** `built-in (@errand/channel-chat-a)`, the package folder, or the command line. */
  where: string;
  /** npm package name (built-ins and packages). */
  packageName?: string;
}

/** One channel as `list()` reports it. */
export interface ChannelStatus {
  label: string;
  backend: string;
  source: ChannelSourceInfo;
  state: ChannelState;
  /** Why it is down (its exit, or why its last start failed); undefined while up. */
  downReason: string | undefined;
  /** From the channel's last successful start (its Handshake for plugins). */
  name: string | undefined;
  version: string | undefined;
  interfaceVersion: number | undefined;
  /** The plugin process, while it runs. */
  pid: number | undefined;
  healthy: boolean;
  /** Plugins: health checks are being sent while it is unhealthy. */
  probing: boolean;
  /** A probe marked it healthy and no delivery has succeeded since: its next failure makes it unhealthy. */
  onProbation: boolean;
  consecutiveFailures: number;
  restarts: number;
  lastFailure: FailureInfo | undefined;
  /** Milliseconds since the epoch. */
  lastSuccessAt: number | undefined;
}

/** The outcome of one test notification sent by `check()`. */
export interface CheckResult {
  label: string;
  backend: string;
  ok: boolean;
  durationMs: number;
  error?: { code: string; message: string; hint?: string | undefined };
}

/** The notifier's part of /readyz. Channels never fail readiness: `status` is informational. */
export interface NotifierHealth {
  /** `ok` when every channel is healthy, else `degraded`. */
  status: "ok" | "degraded";
  channels: Record<
    string,
    {
      healthy: boolean;
      state: ChannelState;
      consecutiveFailures: number;
      lastFailure?: FailureInfo | undefined;
      probing: boolean;
      onProbation: boolean;
    }
  >;
}

/** Tells every configured channel about runs. */
export interface Notifier {
  /** Starts every channel once, in parallel. Rejects with ChannelSetupError naming each misconfigured entry. */
  start(): Promise<void>;
  /** Give this to the loop: one call per run event, bounded, never rejecting. */
  readonly observer: RunObserver;
  list(): ChannelStatus[];
  /** Sends one marked test notification through each channel (or the one labelled `label`). */
  check(label?: string): Promise<CheckResult[]>;
  health(): NotifierHealth;
  /** Cancels calls in flight, stops every channel (plugins that hang are killed). Idempotent. */
  close(): Promise<void>;
}
