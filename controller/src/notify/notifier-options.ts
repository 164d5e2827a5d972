import { ControllerError, ControllerErrorCode } from "../errors.js";
import type { NotifierOptions } from "./notifier-types.js";

/** {@link NotifierOptions} with defaults applied. */
export interface NotifierSettings {
  callTimeoutMs: number;
  unhealthyAfter: number;
  progressPerMinute: number;
  startTimeoutMs: number;
  probeIntervalMs: number;
  backoff: { initialMs: number; maxMs: number };
}

const MAX_TIMER_MS = 2 ** 31 - 1;

function integer(value: number | undefined, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ControllerError(
      ControllerErrorCode.InvalidConfig,
      `createNotifier: ${name} must be an integer from ${min} to ${max}, got ${String(value)}`,
      {
        hint: `leave ${name} out for its default (${fallback})`,
      },
    );
  }
  return value;
}

/** Applies the defaults (5 s bound, unhealthy after 3, 6 progress messages a minute, probes every 30 s) and refuses values no timer can hold. */
export function checkNotifierOptions(options: NotifierOptions): NotifierSettings {
  const initialMs = integer(options.backoff?.initialMs, "backoff.initialMs", 1, MAX_TIMER_MS, 500);
  return {
    callTimeoutMs: integer(options.callTimeoutMs, "callTimeoutMs", 1, MAX_TIMER_MS, 5000),
    unhealthyAfter: integer(options.unhealthyAfter, "unhealthyAfter", 1, 1_000_000, 3),
    progressPerMinute: integer(options.progressPerMinute, "progressPerMinute", 0, 60_000, 6),
    startTimeoutMs: integer(options.startTimeoutMs, "startTimeoutMs", 1, MAX_TIMER_MS, 10_000),
    // At most 2^31-1 / 1.25: the jitter may lengthen an interval by a quarter.
    probeIntervalMs: integer(options.probeIntervalMs, "probeIntervalMs", 1, Math.floor(MAX_TIMER_MS / 1.25), 30_000),
    backoff: {
      initialMs,
      maxMs: integer(options.backoff?.maxMs, "backoff.maxMs", initialMs, MAX_TIMER_MS, Math.max(initialMs, 30_000)),
    },
  };
}
