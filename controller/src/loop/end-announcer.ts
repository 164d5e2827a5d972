import type { Logger } from "@errand/channel-sdk";
import { refusedResult } from "../runs/refused-result.js";
import type { Store } from "../store/store.js";
import type { ObserverDispatch } from "./observer-dispatch.js";

/** Ends taken per check; the rest wait for the next check, a poll interval later. */
const BATCH = 100;

/** Options of {@link createEndAnnouncer}. */
export interface EndAnnouncerOptions {
  store: Store;
  dispatch: ObserverDispatch;
  logger: Logger;
}

/**
 * Tells the observers about runs that ended without the loop: a Queued run
 * cancelled by `errand runs cancel` (another process) is Cancelled in the
 * store at once, so no loop ever holds it to announce its end.
 */
export interface EndAnnouncer {
  /** Takes the marked ends from the store and starts telling the observers; does not wait for them. */
  check(): Promise<void>;
  /** Settles once the check under way and every delivery it started have settled. */
  settled(): Promise<void>;
}

/**
 * Creates the announcer. The store hands each end to one taker once, so a
 * run is announced once whichever controller leads, and an end stored while
 * no controller ran is announced by the next one to lead, as an end found
 * by the restart rule is.
 */
export function createEndAnnouncer(options: EndAnnouncerOptions): EndAnnouncer {
  const { store, dispatch, logger } = options;
  const delivering = new Set<Promise<void>>();
  let checking: Promise<void> | undefined;

  const take = async () => {
    try {
      for (const { run, ticket } of await store.takeUnannounced(BATCH)) {
        logger.info("run ended before it started; telling the observers", {
          run_id: run.id,
          state: run.state,
          reason: run.reason,
        });
        // Stores write a result with every such end; the fallback only keeps a `finished` event whole.
        const sent = dispatch.dispatch({
          type: "finished",
          run,
          ticket,
          result: run.result ?? refusedResult(run.reason),
        });
        delivering.add(sent);
        void sent.finally(() => delivering.delete(sent));
      }
    } catch (error) {
      logger.warn("could not read the runs cancelled before they started; trying again shortly", { error });
    }
  };

  return {
    check() {
      checking ??= take().finally(() => {
        checking = undefined;
      });
      return checking;
    },
    async settled() {
      await checking;
      await Promise.allSettled([...delivering]);
    },
  };
}
