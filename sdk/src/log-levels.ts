import type { Logger, LogLevel } from "./log-types.js";

/** Levels by rank: a logger writes the records at or above its minimum. */
export const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

// The lowest rank each logger made by this SDK writes. A logger a user wrote
// is not in it, and is treated as writing every level.
const minimums = new WeakMap<Logger, number>();

/** Notes that `logger` writes only records of rank `minimum` or above; returns the logger. */
export function withMinimumRank<L extends Logger>(logger: L, minimum: number): L {
  minimums.set(logger, minimum);
  return logger;
}

/** Gives `wrapper` (a logger that passes records on to `inner`) the level `inner` has, if known; returns the wrapper. */
export function sameLevelAs<L extends Logger>(wrapper: L, inner: Logger): L {
  const minimum = minimums.get(inner);
  if (minimum !== undefined) minimums.set(wrapper, minimum);
  return wrapper;
}

/**
 * False when `logger` is known to drop records of `level` (an SDK logger
 * below its level, or a wrapper around one): a wrapper then skips its own
 * work for that level (masking, copying fields). True when unknown.
 */
export function writesLevel(logger: Logger, level: LogLevel): boolean {
  const minimum = minimums.get(logger);
  return minimum === undefined || RANK[level] >= minimum;
}

/** A log method that does nothing, for a level that is off. */
export const dropRecord = (): void => {};
