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
  succeeded(): void;
  failed(code: string, message: string): void;
}

/** Options of {@link createChannelHealth}. */
export interface ChannelHealthOptions {
  label: string;
  /** Failures in a row that make the channel unhealthy. */
  unhealthyAfter: number;
  logger: Logger;
  metrics: NotifierMetrics;
}

/**
 * A channel is unhealthy after `unhealthyAfter` failed calls in a row and
 * healthy again at its next delivered notification: only a delivery proves
 * the target is reachable (a plugin's health check says its process answers,
 * not that its chat platform does). Both changes are logged once.
 */
export function createChannelHealth(options: ChannelHealthOptions): ChannelHealth {
  const { label, unhealthyAfter, logger, metrics } = options;
  let failures = 0;
  let lastFailure: FailureInfo | undefined;
  let lastSuccessAt: number | undefined;
  metrics.healthy(label, true);
  return {
    get healthy() {
      return failures < unhealthyAfter;
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
      if (failures >= unhealthyAfter) {
        logger.info("notification channel recovered", { failures });
        metrics.healthy(label, true);
      }
      failures = 0;
    },
    failed(code, message) {
      lastFailure = { code, message, at: Date.now() };
      failures++;
      if (failures === unhealthyAfter) {
        logger.warn("notification channel is unhealthy: too many failures in a row", { failures, code, error_message: message });
        metrics.healthy(label, false);
      }
    },
  };
}
