import type { Logger } from "@errand/channel-sdk";
import type { RunWithTicket } from "../runs/task-run.js";
import type { Store } from "../store/store.js";
import type { RunTracker } from "./run-tracker.js";
import type { ActiveRun } from "./supervise-run.js";

/** How long a claim on a Queued run holds before another loop may take it. */
const LEASE_MS = 5 * 60_000;

/** Options of {@link createPump}. */
export interface PumpOptions {
  store: Store;
  tracker: RunTracker;
  /** Starts a claimed run and drives it to its end. */
  launch(item: RunWithTicket, active: ActiveRun): Promise<void>;
  maxConcurrent: number;
  /** This loop's name in claims. */
  owner: string;
  logger: Logger;
}

/** Claims Queued runs while slots are free and launches them. */
export interface Pump {
  /** Work may be waiting: claims it now, or once the claim under way is done. Does nothing before `begin` or after `halt`. */
  wake(): void;
  /** Lets `wake` claim work. */
  begin(): void;
  /** Claims nothing more. */
  halt(): void;
}

/** Creates the pump. One claim is under way at a time; a wake during it claims again right after. */
export function createPump(options: PumpOptions): Pump {
  const { store, tracker, logger } = options;
  let stopping = false;
  let begun = false;
  let pumping = false;
  let again = false;

  const pump = async () => {
    pumping = true;
    try {
      do {
        again = false;
        const free = options.maxConcurrent - tracker.running.size;
        if (free <= 0 || stopping) break;
        const claimed = await store.claimQueued(options.owner, free, LEASE_MS);
        for (const item of claimed)
          if (!tracker.running.has(item.run.id)) tracker.track(item, (active) => options.launch(item, active));
        if (claimed.length === free) again = true;
      } while (again && !stopping);
    } catch (error) {
      logger.error("could not claim queued runs; trying again shortly", { error });
    } finally {
      pumping = false;
    }
  };

  return {
    wake() {
      if (stopping || !begun) return;
      if (pumping) {
        again = true;
        return;
      }
      void pump();
    },
    begin() {
      begun = true;
    },
    halt() {
      stopping = true;
    },
  };
}
