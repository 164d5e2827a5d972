import { InvalidArgumentError } from "../errors.js";

/**
 * The longest delay a Node timer holds: 2^31-1 ms, about 24.8 days. Node
 * runs a longer one after 1 ms (with a TimeoutOverflowWarning), so a timer
 * that re-checks and re-arms would spin.
 */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** A pending {@link setLongTimeout}. */
export interface LongTimeout {
  /** Cancels it; calling it again, or after it fired, does nothing. */
  clear(): void;
}

/**
 * Runs `callback` after `ms` milliseconds, for any finite delay: one longer
 * than a timer holds is waited in chunks of at most
 * {@link MAX_TIMER_DELAY_MS}, one timer at a time.
 *
 * Not `node:timers/promises`: its `setTimeout` has the same limit. On Node
 * 20.20.2 `await setTimeout(2 ** 31 + 1000)` resolved after 32 ms, with a
 * TimeoutOverflowWarning, instead of after 24.9 days.
 */
export function setLongTimeout(callback: () => void, ms: number): LongTimeout {
  const delay = Math.max(0, ms);
  let timer: NodeJS.Timeout;
  if (delay <= MAX_TIMER_DELAY_MS) {
    timer = setTimeout(callback, delay);
  } else {
    const due = performance.now() + delay;
    const arm = () => {
      const left = Math.ceil(due - performance.now());
      timer = left > MAX_TIMER_DELAY_MS ? setTimeout(arm, MAX_TIMER_DELAY_MS) : setTimeout(callback, Math.max(0, left));
    };
    arm();
  }
  return { clear: () => clearTimeout(timer) };
}

/**
 * Throws an InvalidArgumentError unless `value` is a finite number of
 * milliseconds >= 0 (large values are fine: they are waited in chunks).
 */
export function checkDelay(what: string, value: unknown, hint: string): asserts value is number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new InvalidArgumentError(`${what} must be a finite number of milliseconds >= 0, got ${describe(value)}`, {
      hint,
    });
  }
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  try {
    return String(value);
  } catch {
    return typeof value;
  }
}
