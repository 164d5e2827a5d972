import type { DeclaredRate } from "../config.js";

/**
 * How many calls a burst may hold so that a channel keeping its declared
 * rate still answers each within the 5 s target (slots over ~3 s).
 */
export function concurrencyFor(rate: DeclaredRate | undefined, max: number): number {
  if (!rate) return max;
  return Math.max(2, Math.min(max, rate.perKey * Math.floor(3000 / rate.intervalMs) + rate.perKey));
}
