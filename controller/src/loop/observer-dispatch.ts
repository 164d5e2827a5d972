import type { Logger } from "@errand/channel-sdk";
import type { RunEvent, RunObserver } from "../runs/run-event.js";

/** Options of {@link createObserverDispatch}. */
export interface ObserverDispatchOptions {
  observers: readonly RunObserver[];
  /** Bound of one observer call; the loop moves on after it whatever the observer does. */
  timeoutMs: number;
  logger: Logger;
}

/**
 * Where a run's events go, split by who keeps their order; a field is left
 * out when no observer is of that kind. Each settles once its observers
 * settled or the bound passed, and never rejects.
 */
export interface EventTargets {
  /** The observers that order a run's events themselves ({@link RunObserver.ordersEvents}): each event at once. */
  eager?: (event: RunEvent) => Promise<void>;
  /** The others: the caller hands them a run's next event once the previous one settled. */
  inTurn?: (event: RunEvent) => Promise<void>;
}

/** Delivers run events to every observer, concurrently and bounded. */
export interface ObserverDispatch {
  /** To every observer at once. Settles once every observer settled or the bound passed. Never rejects. */
  dispatch(event: RunEvent): Promise<void>;
  /** The same split by who keeps a run's events in order, for the event chain the loop keeps for each run. */
  readonly targets: EventTargets;
  /** Aborts calls in flight and closes the observers. */
  close(): Promise<void>;
}

/**
 * Observers are non-critical: a slow or failing one is logged and
 * left behind, never retried, never able to hold a run or the loop.
 */
export function createObserverDispatch(options: ObserverDispatchOptions): ObserverDispatch {
  const shutdown = new AbortController();
  // The calls in flight, aborted by shutdown through one listener: a listener per call on the long-lived
  // signal costs on every call (Node's EventTarget walks its list on each add and remove).
  const inFlight = new Set<AbortController>();
  shutdown.signal.addEventListener(
    "abort",
    () => {
      for (const control of inFlight) control.abort(shutdown.signal.reason);
    },
    { once: true },
  );
  const call = async (observer: RunObserver, event: RunEvent): Promise<void> => {
    // One controller per call, aborted by the bound's own timer or by shutdown. Not
    // AbortSignal.any/timeout: on Node 20, any() with the long-lived shutdown signal as a
    // source costs 20–40 µs a call, growing with every call made (its dependants are only
    // dropped by GC), and each timeout() signal fires later with a DOMException.
    const control = new AbortController();
    inFlight.add(control);
    const signal = control.signal;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => {
        control.abort(
          new DOMException(
            `run observer ${observer.name} did not finish within ${options.timeoutMs} ms`,
            "TimeoutError",
          ),
        );
        resolve("timeout");
      }, options.timeoutMs);
    });
    try {
      const outcome = await Promise.race([observer.observe(event, signal).then(() => "done" as const), bound]);
      if (outcome === "timeout") {
        options.logger.warn("run observer did not finish in time; moving on", {
          observer: observer.name,
          event: event.type,
          run_id: event.run.id,
          timeout_ms: options.timeoutMs,
        });
      }
    } catch (error) {
      options.logger.error("run observer failed", {
        observer: observer.name,
        event: event.type,
        run_id: event.run.id,
        error,
      });
    } finally {
      clearTimeout(timer);
      inFlight.delete(control);
    }
  };
  const toEach = async (observers: readonly RunObserver[], event: RunEvent): Promise<void> => {
    if (shutdown.signal.aborted) return;
    await Promise.all(observers.map((o) => call(o, event)));
  };
  const eager = options.observers.filter((o) => o.ordersEvents === true);
  const inTurn = options.observers.filter((o) => o.ordersEvents !== true);
  return {
    async dispatch(event) {
      if (options.observers.length > 0) await toEach(options.observers, event);
    },
    targets: {
      ...(eager.length > 0 ? { eager: (event: RunEvent) => toEach(eager, event) } : {}),
      ...(inTurn.length > 0 ? { inTurn: (event: RunEvent) => toEach(inTurn, event) } : {}),
    },
    async close() {
      shutdown.abort(new Error("controller shutting down"));
      await Promise.allSettled(options.observers.map((o) => o.close()));
    },
  };
}
