import { toChannelError } from "../errors.js";
import { CallController, settleFirst } from "./call-controller.js";

/**
 * Runs `work` and settles when it does or when `signal` aborts, whichever
 * comes first. A handler that ignores its signal therefore cannot hold a
 * call past its deadline; its late result is dropped.
 */
export function runWithSignal<T>(work: () => T | Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(toChannelError(signal.reason));
  return settleFirst(work, (onAbort) => {
    const listener = () => onAbort(signal.reason);
    signal.addEventListener("abort", listener, { once: true });
    return () => signal.removeEventListener("abort", listener);
  });
}

/**
 * A controller that aborts when `parent` does or after `timeoutMs`, with the
 * reason `makeReason()` gives. `dispose` clears the timer and the listener.
 */
export function deadlineSignal(
  timeoutMs: number,
  makeReason: () => Error,
  parent?: AbortSignal,
): { controller: AbortController; dispose: () => void } {
  // Its signal is made only if the handler reads it or the call aborts (see CallController).
  const controller = new CallController();
  const timer = setTimeout(() => controller.abort(makeReason()), Math.max(0, timeoutMs));
  const onParentAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener("abort", onParentAbort, { once: true });
  return {
    controller,
    dispose: () => {
      clearTimeout(timer);
      parent?.removeEventListener("abort", onParentAbort);
    },
  };
}
