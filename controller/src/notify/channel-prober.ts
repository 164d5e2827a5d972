import { type Logger, toChannelError } from "@errand/channel-sdk";
import type { ChannelHealth } from "./channel-health.js";
import type { NotifierMetrics } from "./notifier-metrics.js";
import type { SupervisedChannel } from "./supervised-channel.js";

/** Options of {@link createChannelProber}. */
export interface ProberOptions {
  label: string;
  supervised: SupervisedChannel;
  health: ChannelHealth;
  logger: Logger;
  metrics: NotifierMetrics;
  /** Mean time between two probes, ms. */
  intervalMs: number;
  /** Bound of one health check, ms. */
  timeoutMs: number;
  /** Aborts with the notifier's shutdown: no probe starts after it, one in flight is cancelled. */
  signal: AbortSignal;
  /** A number in [0, 1); default Math.random. */
  random?: () => number;
}

/** Probes one unhealthy plugin channel until it answers. */
export interface ChannelProber {
  /** Starts probing (the channel just turned unhealthy); a no-op while probing. */
  start(): void;
  /** True while probes are scheduled or one is in flight. */
  readonly probing: boolean;
}

/**
 * Probes an unhealthy plugin channel with its gRPC health check, every
 * `intervalMs` give or take 25 % (jitter, so channels that failed together
 * are not probed in lockstep), until a check answers SERVING; the channel is
 * then healthy again, on probation (see createChannelHealth), without a
 * notification being sent. A check that fails (NOT_SERVING, no answer, the
 * process down) leaves it unhealthy and probed. A delivery that succeeds
 * meanwhile ends the probing too. Nothing is scheduled after shutdown.
 */
export function createChannelProber(options: ProberOptions): ChannelProber {
  const { label, supervised, health, logger, metrics, signal } = options;
  const random = options.random ?? Math.random;
  let timer: NodeJS.Timeout | undefined;
  let inFlight = false;
  signal.addEventListener(
    "abort",
    () => {
      clearTimeout(timer);
      timer = undefined;
    },
    { once: true },
  );

  const schedule = () => {
    const delay = Math.round(options.intervalMs * (0.75 + random() * 0.5));
    // Unref'd: a pending probe never keeps a finished process (a CLI command) alive.
    timer = setTimeout(() => void probe(), delay).unref();
  };

  const probe = async () => {
    timer = undefined;
    if (signal.aborted || health.healthy) return;
    inFlight = true;
    try {
      await supervised.checkHealth(options.timeoutMs, signal);
      metrics.probed(label, "ok");
      if (!signal.aborted) health.probeSucceeded();
      return;
    } catch (error) {
      if (signal.aborted) return;
      const { code, message } = toChannelError(error);
      metrics.probed(label, "failed");
      logger.info("notification channel still unhealthy: its health check failed", { code, error_message: message });
    } finally {
      inFlight = false;
    }
    if (!health.healthy) schedule();
  };

  return {
    start() {
      if (signal.aborted || timer !== undefined || inFlight) return;
      schedule();
    },
    get probing() {
      return timer !== undefined || inFlight;
    },
  };
}
