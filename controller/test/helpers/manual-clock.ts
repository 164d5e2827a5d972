import type { ThrottleClock } from "../../src/sources/progress-comment/comment-throttle.js";

/** A clock that moves only when the test says so; its timers fire in time order as it passes them. */
export class ManualClock implements ThrottleClock {
  #now: number;
  #next = 1;
  readonly #timers = new Map<number, { at: number; fn: () => void }>();

  constructor(start = 1_700_000_000_000) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** Timers waiting. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time on by `ms`, firing each timer that comes due, in order. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = [...this.#timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      this.#timers.delete(due[0]);
      this.#now = due[1].at;
      due[1].fn();
    }
    this.#now = end;
  }
}
