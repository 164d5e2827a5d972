/** A registered deadline; pass it to {@link DeadlineQueue.cancel} when the work settled in time. */
export interface Deadline {
  readonly at: number;
  readonly onExpire: () => void;
}

/**
 * Deadlines that all have the same length, behind one timer. Entries expire
 * in the order they were added, so an insertion-ordered Set is a queue by
 * deadline: adding and cancelling cost a Set operation each, where a
 * `setTimeout`/`clearTimeout` pair per request allocates a timer object and
 * touches the timer list twice. The timer is armed for the oldest deadline
 * only and re-armed when it fires.
 */
export class DeadlineQueue {
  /** How long after {@link add} a deadline expires, in milliseconds. */
  readonly ms: number;
  readonly #entries = new Set<Deadline>();
  #timer: NodeJS.Timeout | undefined;

  /** `ms`: how long after {@link add} a deadline expires. */
  constructor(ms: number) {
    this.ms = ms;
  }

  /** Calls `onExpire` in `ms` unless cancelled first. */
  add(onExpire: () => void): Deadline {
    const deadline: Deadline = { at: performance.now() + this.ms, onExpire };
    this.#entries.add(deadline);
    if (this.#timer === undefined) this.#arm(this.ms);
    return deadline;
  }

  /** Forgets a deadline; a no-op once it expired. */
  cancel(deadline: Deadline): void {
    this.#entries.delete(deadline);
    // An armed timer with nothing left to expire would hold the process up to `ms` after its last request.
    if (this.#entries.size === 0 && this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  /** Deadlines not yet expired nor cancelled. */
  get size(): number {
    return this.#entries.size;
  }

  #arm(delay: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(this.#fire, Math.max(1, Math.ceil(delay)));
    // The work a deadline guards keeps the process alive by itself (a socket, a handler's I/O); the timer must not.
    this.#timer.unref();
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    for (const deadline of this.#entries) {
      if (deadline.at > now) {
        this.#arm(deadline.at - now);
        return;
      }
      this.#entries.delete(deadline);
      try {
        deadline.onExpire();
      } catch (error) {
        // The rest still expire on time; the error surfaces as a timer callback's would.
        if (this.#entries.size > 0) this.#arm(0);
        throw error;
      }
    }
  };
}
