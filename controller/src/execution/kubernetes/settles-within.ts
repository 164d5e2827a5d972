import { setTimeout as sleep } from "node:timers/promises";

/** True when `promise` settles within `ms` (its rejection counts as settling); the timer is cleared either way. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const timer = new AbortController();
  const settled = promise.then(
    () => true,
    () => true,
  );
  const inTime = await Promise.race([settled, sleep(ms, false, { signal: timer.signal }).catch(() => false)]);
  timer.abort();
  return inTime;
}
