/** Restart delays of a crashed plugin. */
export interface BackoffOptions {
  /** Ceiling of the first delay, ms. Default 500. */
  initialMs?: number;
  /** Ceiling of every delay, ms. Default 30 000. */
  maxMs?: number;
  /** A number in [0, 1); default Math.random. */
  random?: () => number;
}

/** The delays, by attempt. */
export interface Backoff {
  /** Delay before restart attempt `attempt` (0 for the first), ms. */
  delay(attempt: number): number;
  readonly initialMs: number;
  readonly maxMs: number;
}

/**
 * Exponential backoff with full jitter: attempt n waits a random time in
 * [0, min(maxMs, initialMs * 2^n)), so plugins that crashed together do not
 * restart in lockstep.
 */
export function createBackoff(options: BackoffOptions = {}): Backoff {
  const initialMs = options.initialMs ?? 500;
  const maxMs = Math.max(initialMs, options.maxMs ?? 30_000);
  const random = options.random ?? Math.random;
  return {
    initialMs,
    maxMs,
    delay(attempt) {
      const ceiling = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
      return Math.floor(random() * ceiling);
    },
  };
}
