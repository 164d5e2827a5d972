import type { RunEvent } from "../runs/run-event.js";
import type { EventTargets } from "./observer-dispatch.js";

/**
 * Hands one run's events (started, progress..., finished) to the observers
 * without letting them hold the run. Observers that order events themselves
 * (the notifier) get each at once, so a slow one delays nobody else. For the
 * others, an event waits until the previous one settled, and only the latest
 * waiting progress is kept, so a chatty engine behind a slow observer cannot
 * pile up a backlog. Nothing is handed on after `finished`.
 */
export class EventChain {
  #tail: Promise<void> = Promise.resolve();
  #pendingProgress: RunEvent | undefined;
  #progressQueued = false;
  #ended = false;
  #eagerInFlight = 0;
  #onEagerIdle: (() => void) | undefined;
  readonly #eagerSettled = (): void => {
    this.#eagerInFlight -= 1;
    if (this.#eagerInFlight === 0) this.#onEagerIdle?.();
  };

  constructor(private readonly targets: EventTargets) {}

  /** Hands on `started` or `finished`. */
  push(event: RunEvent): void {
    if (this.#ended) return;
    if (event.type === "finished") this.#ended = true;
    this.#eager(event);
    const inTurn = this.targets.inTurn;
    if (inTurn !== undefined) this.#tail = this.#tail.then(() => inTurn(event));
  }

  /** Hands on a progress event; for the in-turn observers, it replaces one still waiting. */
  progress(event: RunEvent): void {
    if (this.#ended) return;
    this.#eager(event);
    const inTurn = this.targets.inTurn;
    if (inTurn === undefined) return;
    this.#pendingProgress = event;
    if (this.#progressQueued) return;
    this.#progressQueued = true;
    this.#tail = this.#tail.then(() => {
      this.#progressQueued = false;
      const next = this.#pendingProgress;
      this.#pendingProgress = undefined;
      return next === undefined ? undefined : inTurn(next);
    });
  }

  /** Resolves once everything handed on so far has settled. */
  async idle(): Promise<void> {
    if (this.#eagerInFlight > 0) {
      await new Promise<void>((resolve) => {
        const previous = this.#onEagerIdle;
        this.#onEagerIdle = () => {
          this.#onEagerIdle = undefined;
          previous?.();
          resolve();
        };
      });
    }
    await this.#tail;
  }

  #eager(event: RunEvent): void {
    const eager = this.targets.eager;
    if (eager === undefined) return;
    this.#eagerInFlight += 1;
    // The dispatch never rejects.
    void eager(event).then(this.#eagerSettled);
  }
}
