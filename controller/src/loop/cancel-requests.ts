import type { Logger } from "@errand/channel-sdk";
import type { Store } from "../store/store.js";
import type { RunTracker } from "./run-tracker.js";

/** Halts the held runs that `errand runs cancel` (another process) asked to cancel. */
export async function applyCancelRequests(store: Store, tracker: RunTracker, logger: Logger): Promise<void> {
  if (tracker.running.size === 0) return;
  try {
    for (const run of await store.cancelRequested()) {
      const active = tracker.running.get(run.id);
      if (active === undefined) continue;
      active.stop.cancelReason ??= run.reason.startsWith("cancel") ? run.reason : "cancelled with errand runs cancel";
      active.halt("cancel");
    }
  } catch (error) {
    logger.warn("could not read cancel requests", { error });
  }
}
