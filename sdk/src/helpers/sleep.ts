import { InvalidArgumentError, toChannelError } from "../errors.js";
import { setLongTimeout } from "./long-timer.js";

/**
 * Waits `ms` milliseconds, or rejects as soon as `signal` aborts with
 * `toChannelError(signal.reason)` (a `CancelledError` or
 * `DeadlineExceededError`). The timer is cleared on abort, so nothing keeps
 * the process alive after a cancelled wait.
 *
 * Any finite delay is honoured, also one longer than a Node timer holds
 * (2^31-1 ms, about 24.8 days: it is waited in chunks); a negative one is 0.
 * `NaN`, `Infinity` and non-numbers reject with an `InvalidArgumentError`.
 *
 * @example
 * await sleep(250, ctx.signal);
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (typeof ms !== "number" || Number.isNaN(ms) || ms === Infinity) {
    return Promise.reject(
      new InvalidArgumentError(`sleep: ms must be a finite number of milliseconds, got ${String(ms)}`, {
        hint: "pass the delay in milliseconds; to wait until a signal aborts, listen for its abort event instead",
      }),
    );
  }
  if (signal?.aborted) return Promise.reject(toChannelError(signal.reason));
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      timer.clear();
      reject(toChannelError(signal?.reason));
    };
    const timer = setLongTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
