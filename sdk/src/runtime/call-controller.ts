import { toChannelError } from "../errors.js";

/**
 * The AbortController of one call to a channel's handler. Node makes a
 * controller's signal only when it is first read, and a signal (an
 * EventTarget) costs several microseconds and a good deal of garbage per
 * call, more than the rest of the plugin's dispatch. This controller tells
 * the runtime of its abort directly, so a call whose handler never reads
 * `ctx.signal` makes no signal at all; a handler that reads it gets the
 * same signal, aborted as before.
 */
export class CallController extends AbortController {
  #aborted = false;
  #onAbort: ((reason: unknown) => void) | undefined;

  /** True once abort() was called; unlike `signal.aborted` it makes no signal. */
  get isAborted(): boolean {
    return this.#aborted;
  }

  override abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    super.abort(reason);
    const listener = this.#onAbort;
    this.#onAbort = undefined;
    // signal.reason, not `reason`: an abort without a reason gets the standard AbortError.
    listener?.(this.signal.reason);
  }

  /**
   * Runs `work` and settles when it does or when this controller aborts,
   * whichever comes first, as runWithSignal does with a signal: a handler
   * that ignores its signal cannot hold the call past its deadline. Rejects
   * with a typed ChannelError.
   */
  race<T>(work: () => T | Promise<T>): Promise<T> {
    if (this.#aborted) return Promise.reject(toChannelError(this.signal.reason));
    return settleFirst(work, (onAbort) => {
      this.#onAbort = onAbort;
      return () => {
        this.#onAbort = undefined;
      };
    });
  }
}

/**
 * Runs `work` and settles with it, or with the abort that `listen` reports
 * first, as a typed ChannelError; `listen` returns how to stop listening,
 * called once `work` settles. What CallController.race and runWithSignal
 * share: only how they hear of the abort differs.
 */
export function settleFirst<T>(
  work: () => T | Promise<T>,
  listen: (onAbort: (reason: unknown) => void) => () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = listen((reason) => reject(toChannelError(reason)));
    let pending: Promise<T>;
    try {
      pending = Promise.resolve(work());
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(toChannelError(error));
      },
    );
  });
}
