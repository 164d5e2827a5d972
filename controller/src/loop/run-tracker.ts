import type { Logger } from "@errand/channel-sdk";
import type { RunWithTicket } from "../runs/task-run.js";
import { EventChain } from "./event-chain.js";
import type { ObserverDispatch } from "./observer-dispatch.js";
import { type ActiveRun, createActiveRun, type SuperviseDeps } from "./supervise-run.js";

/** Options of {@link createRunTracker}. */
export interface RunTrackerOptions {
  dispatch: ObserverDispatch;
  deps: SuperviseDeps;
  logger: Logger;
  /** A slot is free: a run's end is stored. */
  onFree(): void;
}

/** The runs the loop holds, from the claim to the stored end, and the deliveries of the ends to the observers. */
export interface RunTracker {
  /** The runs held now, by run id. */
  readonly running: ReadonlyMap<string, ActiveRun>;
  /** Holds a run while `body` drives it; the slot is freed once `body` settles, however it ends. */
  track(item: RunWithTicket, body: (active: ActiveRun) => Promise<void>): void;
  /** Settles once every run held now has its end stored. */
  allFinished(): Promise<void>;
  /** Event deliveries of runs that ended, still under way; each is bounded by the observers' timeout. */
  notifying(): Promise<void>[];
}

/** Creates the tracker. */
export function createRunTracker(options: RunTrackerOptions): RunTracker {
  const { deps, logger } = options;
  const running = new Map<string, ActiveRun>();
  const notifying = new Set<Promise<void>>();
  return {
    running,
    track(item, body) {
      const active = createActiveRun(item.run, item.ticket, new EventChain(options.dispatch.targets), deps);
      running.set(item.run.id, active);
      active.finished = body(active)
        .catch((error: unknown) => logger.error("run failed inside the loop", { run_id: item.run.id, error }))
        .finally(() => {
          // The slot is free once the end is stored: a slow channel delays its own messages, never the next run.
          running.delete(item.run.id);
          const delivering = active.events.idle();
          notifying.add(delivering);
          void delivering.finally(() => notifying.delete(delivering));
          options.onFree();
        });
    },
    allFinished: () => Promise.all([...running.values()].map((r) => r.finished)).then(() => undefined),
    notifying: () => [...notifying],
  };
}
