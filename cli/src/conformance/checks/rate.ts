import type { DeclaredRate } from "../config.js";

/**
 * How many calls a burst may hold so that a channel keeping its declared
 * rate still answers each within the 5 s target (slots over ~3 s).
 */
export function concurrencyFor(rate: DeclaredRate | undefined, max: number): number {
  if (!rate) return max;
  return Math.max(2, Math.min(max, rate.perKey * Math.floor(3000 / rate.intervalMs) + rate.perKey));
}

/** Timers and clocks round to the millisecond; a slot may come out this much early. */
export const ROUNDING_MS = 20;
/**
 * How late after its slot a request may arrive at the sink: a first request
 * setting up its connection while both cores of the 2-core machine were
 * saturated arrived 640 ms after its slot (docs/conformance.md).
 */
export const LATE_MS = 1000;

/** Where a burst broke the declared rate, for the check's message. */
export type RateViolation =
  | { kind: "early"; index: number; atMs: number; earliestMs: number }
  | { kind: "close"; first: number; second: number; apartMs: number; minimumMs: number };

/**
 * Judges one target's arrival times (ms since the epoch, any order) of a
 * burst whose calls were all made at `burstStart`, against `rate`. Lateness
 * never makes a request early, so the rules allow any lateness but no
 * earliness beyond {@link ROUNDING_MS}:
 * - from the burst's start: the k-th arrival (0-based) no earlier than
 *   floor(k / perKey) intervals after it. A throttle grants its first slot
 *   after the calls were made and each next one an interval later; a request
 *   arrives after its slot, however busy the machine.
 * - between two arrivals n·perKey apart: at least n intervals less
 *   {@link LATE_MS}, since the earlier one may have arrived that late, which
 *   shortens its gap to the later ones. This catches a channel that starts
 *   late (a slow first call) and then sends everything at once.
 * A channel without a throttle sends its burst within milliseconds and breaks
 * the first rule at its second request (perKey 1). Returns the first rule
 * broken, or undefined.
 */
export function judgeArrivals(
  arrivals: readonly number[],
  burstStart: number,
  rate: DeclaredRate,
): RateViolation | undefined {
  const times = [...arrivals].sort((a, b) => a - b);
  const { perKey, intervalMs } = rate;
  for (let k = 0; k < times.length; k++) {
    const earliestMs = Math.floor(k / perKey) * intervalMs;
    const atMs = times[k]! - burstStart;
    if (atMs < earliestMs - ROUNDING_MS) return { kind: "early", index: k, atMs, earliestMs };
  }
  for (let i = 0; i < times.length; i++) {
    for (let j = i + perKey; j < times.length; j++) {
      const minimumMs = Math.floor((j - i) / perKey) * intervalMs - LATE_MS;
      const apartMs = times[j]! - times[i]!;
      if (apartMs < minimumMs - ROUNDING_MS) return { kind: "close", first: i, second: j, apartMs, minimumMs };
    }
  }
  return undefined;
}

/** A violation in words. */
export function describeViolation(v: RateViolation, path: string): string {
  return v.kind === "early"
    ? `request #${v.index + 1} to ${path} arrived ${v.atMs} ms after the burst started; at the declared rate it comes no earlier than ${v.earliestMs} ms`
    : `requests #${v.first + 1} and #${v.second + 1} to ${path} arrived ${v.apartMs} ms apart; at the declared rate at least ${v.minimumMs} ms`;
}
