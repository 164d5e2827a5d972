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
    return new Promise<T>((resolve, reject) => {
      this.#onAbort = (reason) => reject(toChannelError(reason));
      let pending: Promise<T>;
      try {
        pending = Promise.resolve(work());
      } catch (error) {
        pending = Promise.reject(error);
      }
      pending.then(
        (value) => {
          this.#onAbort = undefined;
          resolve(value);
        },
        (error: unknown) => {
          this.#onAbort = undefined;
          reject(toChannelError(error));
        },
      );
    });
  }
}
