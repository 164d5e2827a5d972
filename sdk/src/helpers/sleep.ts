import { toChannelError } from "../errors.js";

/**
 * Waits `ms` milliseconds, or rejects as soon as `signal` aborts with
 * `toChannelError(signal.reason)` (a `CancelledError` or
 * `DeadlineExceededError`). The timer is cleared on abort, so nothing keeps
 * the process alive after a cancelled wait.
 *
 * @example
 * await sleep(250, ctx.signal);
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(toChannelError(signal.reason));
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(toChannelError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
