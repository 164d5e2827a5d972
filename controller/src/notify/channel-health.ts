import type { Logger } from "@errand/channel-sdk";
import type { NotifierMetrics } from "./notifier-metrics.js";

/** The last failure of a channel, as `errand channels list` and /readyz show it. */
export interface FailureInfo {
  code: string;
  message: string;
  /** Milliseconds since the epoch. */
  at: number;
}

/** Counts a channel's failures in a row and marks it unhealthy after too many. */
export interface ChannelHealth {
  readonly healthy: boolean;
  readonly consecutiveFailures: number;
  readonly lastFailure: FailureInfo | undefined;
  readonly lastSuccessAt: number | undefined;
  /** True after a probe marked the channel healthy and no delivery has succeeded since. */
  readonly onProbation: boolean;
  succeeded(): void;
  failed(code: string, message: string): void;
  /** A probe of an unhealthy channel answered: healthy again, on probation (see {@link createChannelHealth}). */
  probeSucceeded(): void;
}

/** Options of {@link createChannelHealth}. */
export interface ChannelHealthOptions {
  label: string;
  /** Failures in a row that make the channel unhealthy. */
  unhealthyAfter: number;
  logger: Logger;
  metrics: NotifierMetrics;
  /** Called each time the channel turns unhealthy (the prober starts there). */
  onUnhealthy?: () => void;
}

/**
 * A channel is unhealthy after `unhealthyAfter` failed calls in a row and
 * healthy again at its next delivered notification: only a delivery proves
 * the target is reachable (a plugin's health check says its process answers,
 * not that its chat platform does), or when a probe of an unhealthy plugin
 * answers SERVING. A probe proves less than a delivery, so a channel it
 * marked healthy is on probation: its next failure makes it unhealthy again
 * at once, its next delivery ends the probation. Each change is logged once.
 */
export function createChannelHealth(options: ChannelHealthOptions): ChannelHealth {
  const { label, unhealthyAfter, logger, metrics } = options;
  let healthy = true;
  let probation = false;
  let failures = 0;
  let lastFailure: FailureInfo | undefined;
  let lastSuccessAt: number | undefined;
  const recovered = (by: "delivery" | "probe") => {
    logger.info("notification channel recovered", { failures, by });
    healthy = true;
    metrics.healthy(label, true);
  };
  metrics.healthy(label, true);
  return {
    get healthy() {
      return healthy;
    },
    get onProbation() {
      return probation;
    },
    get consecutiveFailures() {
      return failures;
    },
    get lastFailure() {
      return lastFailure;
    },
    get lastSuccessAt() {
      return lastSuccessAt;
    },
    succeeded() {
      lastSuccessAt = Date.now();
      if (!healthy) recovered("delivery");
      failures = 0;
      probation = false;
    },
    failed(code, message) {
      lastFailure = { code, message, at: Date.now() };
      failures++;
      if (!healthy || failures < (probation ? 1 : unhealthyAfter)) return;
      const why = probation ? "it failed again after a probe had marked it healthy" : "too many failures in a row";
      logger.warn(`notification channel is unhealthy: ${why}`, { failures, code, error_message: message });
      healthy = false;
      probation = false;
      metrics.healthy(label, false);
      options.onUnhealthy?.();
    },
    probeSucceeded() {
      if (healthy) return;
      recovered("probe");
      failures = 0;
      probation = true;
    },
  };
}
