import type { RunEvent } from "../runs/run-event.js";

/**
 * Keeps one run's events in order (started, progress..., finished) without
 * letting them hold the run: progress that arrives while an event is being
 * delivered waits, and only the latest waiting progress is kept, so a chatty
 * engine behind a slow channel cannot pile up a backlog.
 */
export class EventChain {
  #tail: Promise<void> = Promise.resolve();
  #pendingProgress: RunEvent | undefined;
  #progressQueued = false;

  constructor(private readonly deliver: (event: RunEvent) => Promise<void>) {}

  /** Queues `started` or `finished`; resolves once it (and everything before it) was delivered. */
  push(event: RunEvent): Promise<void> {
    this.#tail = this.#tail.then(() => this.deliver(event));
    return this.#tail;
  }

  /** Queues a progress event, replacing one that is still waiting. */
  progress(event: RunEvent): void {
    this.#pendingProgress = event;
    if (this.#progressQueued) return;
    this.#progressQueued = true;
    this.#tail = this.#tail.then(() => {
      this.#progressQueued = false;
      const next = this.#pendingProgress;
      this.#pendingProgress = undefined;
      return next === undefined ? undefined : this.deliver(next);
    });
  }

  /** Resolves once everything queued so far was delivered. */
  idle(): Promise<void> {
    return this.#tail;
  }
}
