/** Time as the throttle sees it; tests pass a clock they move by hand. */
export interface ThrottleClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock. */
export const systemClock: ThrottleClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Options of {@link createCommentThrottle}. */
export interface CommentThrottleOptions {
  /** Least time between the starts of two writes. */
  intervalMs: number;
  clock: ThrottleClock;
  /** When the last write started (the comment's creation), ms since the epoch. */
  lastWriteAt: number;
  /** Writes a text; it logs its own failures (a rejection is ignored). */
  write(text: string): Promise<void>;
}

/** Writes one comment's successive texts at most once per interval. */
export interface CommentThrottle {
  /** A newer text: written once the interval allows, unless a newer one replaces it first. */
  offer(text: string): void;
  /** The last text: never dropped, written once the interval allows. Settles once it is written (or failed). */
  finish(text: string): Promise<void>;
  /** Writes a waiting text at once, whatever the interval (shutdown), and settles once writes are done. */
  flush(): Promise<void>;
}

/**
 * Coalesces a comment's edits: while the interval since the last write has
 * not passed, each new text replaces the one waiting, so the latest wins and
 * the host sees at most one write per interval. The final text replaces any
 * waiting one and nothing after it is taken.
 */
export function createCommentThrottle(options: CommentThrottleOptions): CommentThrottle {
  const { clock, intervalMs } = options;
  let lastWriteAt = options.lastWriteAt;
  let waiting: string | undefined;
  let final = false;
  let timer: unknown;
  let inFlight: Promise<void> | undefined;
  let finished: (() => void) | undefined;
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });

  const fire = (): void => {
    timer = undefined;
    if (waiting === undefined || inFlight !== undefined) return;
    const text = waiting;
    const last = final;
    waiting = undefined;
    lastWriteAt = clock.now();
    // Called at once (the write starts now); a writer that throws despite logging its failures stops nothing.
    inFlight = write(text).finally(() => {
      inFlight = undefined;
      if (last) finished?.();
      else schedule();
    });
  };
  const schedule = (): void => {
    if (waiting === undefined || inFlight !== undefined || timer !== undefined) return;
    const wait = lastWriteAt + intervalMs - clock.now();
    if (wait <= 0) fire();
    else timer = clock.setTimeout(fire, wait);
  };

  const write = async (text: string): Promise<void> => {
    try {
      await options.write(text);
    } catch {
      // The writer logged it.
    }
  };

  return {
    offer(text) {
      if (final) return;
      waiting = text;
      schedule();
    },
    finish(text) {
      if (!final) {
        final = true;
        waiting = text;
        schedule();
      }
      return done;
    },
    async flush() {
      await inFlight;
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
      if (waiting !== undefined) {
        fire();
        await inFlight;
      }
    },
  };
}
