import { toChannelError } from "@errand/channel-sdk";

/** Gives out one turn at a time, first come first served. */
export interface SerialQueue {
  /**
   * Resolves with a `release` function once it is the caller's turn. When
   * `signal` aborts while waiting, the caller leaves the queue and the promise
   * rejects with `toChannelError(signal.reason)`; the others keep their order.
   */
  acquire(signal?: AbortSignal): Promise<() => void>;
  /** Callers waiting for their turn (the one holding it not counted). */
  readonly waiting: number;
}

interface Waiter {
  grant: () => void;
}

/**
 * A FIFO mutex with abortable waiting. The channel holds a turn for a whole
 * delivery (throttle slot, attempts and retries), so messages to one target
 * arrive in the order they were sent even when one of them is retried.
 */
export function createSerialQueue(): SerialQueue {
  const queue: Waiter[] = [];
  let busy = false;

  const release = () => {
    const next = queue.shift();
    if (next) next.grant();
    else busy = false;
  };
  const once = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };

  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(toChannelError(signal.reason));
      if (!busy) {
        busy = true;
        return Promise.resolve(once());
      }
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
          reject(toChannelError(signal?.reason));
        };
        const waiter: Waiter = {
          grant: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve(once());
          },
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        queue.push(waiter);
      });
    },
    get waiting() {
      return queue.length;
    },
  };
}
