import { toChannelError } from "../errors.js";

/**
 * Runs `work` and settles when it does or when `signal` aborts, whichever
 * comes first. A handler that ignores its signal therefore cannot hold a
 * call past its deadline; its late result is dropped.
 */
export function runWithSignal<T>(work: () => T | Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(toChannelError(signal.reason));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(toChannelError(signal.reason));
    signal.addEventListener("abort", onAbort, { once: true });
    let pending: Promise<T>;
    try {
      pending = Promise.resolve(work());
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(toChannelError(error));
      },
    );
  });
}

/**
 * A signal that aborts when `parent` does or after `timeoutMs`, with a
 * DeadlineExceededError-compatible reason. `dispose` clears the timer.
 */
export function deadlineSignal(
  timeoutMs: number,
  makeReason: () => Error,
  parent?: AbortSignal,
): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(makeReason()), Math.max(0, timeoutMs));
  const onParentAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener("abort", onParentAbort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      parent?.removeEventListener("abort", onParentAbort);
    },
  };
}
