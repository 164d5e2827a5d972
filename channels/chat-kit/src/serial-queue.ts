import { toChannelError } from "@errand/channel-sdk";

/** Ends a turn of a {@link SerialQueue}; calling it again does nothing. */
export type ReleaseTurn = () => void;

/** Gives out one turn at a time, first come first served. */
export interface SerialQueue {
  /**
   * Resolves with a `release` function once it is the caller's turn. When
   * `signal` aborts while waiting, the caller leaves the queue at once and
   * the promise rejects with `toChannelError(signal.reason)` (`CancelledError`
   * or `DeadlineExceededError`); the others keep their order. Always call
   * `release` (in a `finally`), or the queue stays blocked.
   */
  acquire(signal?: AbortSignal): Promise<ReleaseTurn>;
  /** Waits for a turn, runs `fn`, and releases the turn however `fn` ends. */
  run<T>(fn: () => T | Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Callers waiting for their turn (the one holding it not counted). */
  readonly waiting: number;
  /** True while someone holds the turn. */
  readonly busy: boolean;
}

/**
 * Creates a FIFO mutex with abortable waiting. A channel holds a turn for a
 * whole delivery (throttle slot, attempts and retries), so messages to one
 * target arrive in the order they were sent even when one of them is
 * retried; a throttle alone keeps the order of first attempts only.
 *
 * @example
 * const queue = createSerialQueue();
 * await queue.run(() => post(message), ctx.signal);
 */
export function createSerialQueue(): SerialQueue {
  const queue: Array<() => void> = [];
  let busy = false;

  const handOn = () => {
    const next = queue.shift();
    if (next) next();
    else busy = false;
  };
  const releaseOnce = (): ReleaseTurn => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      handOn();
    };
  };

  const acquire = (signal?: AbortSignal): Promise<ReleaseTurn> => {
    if (signal?.aborted) return Promise.reject(toChannelError(signal.reason));
    if (!busy) {
      busy = true;
      return Promise.resolve(releaseOnce());
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const index = queue.indexOf(grant);
        if (index >= 0) queue.splice(index, 1);
        reject(toChannelError(signal?.reason));
      };
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve(releaseOnce());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      queue.push(grant);
    });
  };

  return {
    acquire,
    async run(fn, signal) {
      const release = await acquire(signal);
      try {
        return await fn();
      } finally {
        release();
      }
    },
    get waiting() {
      return queue.length;
    },
    get busy() {
      return busy;
    },
  };
}
