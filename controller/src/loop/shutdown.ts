import type { Logger } from "@errand/channel-sdk";
import type { RunTracker } from "./run-tracker.js";

/** What {@link stopWithGrace} needs from the loop. */
export interface ShutdownDeps {
  tracker: RunTracker;
  /** The backend's runs outlive the controller (Kubernetes Jobs): they are left running rather than stopped. */
  detaches: boolean;
  logger: Logger;
}

/**
 * Lets the runs held now finish for `graceMs`, then leaves the rest:
 * detached and still Running when the backend's runs outlive the
 * controller, else stopped. Settles once every run's end is stored.
 */
export async function stopWithGrace(graceMs: number, deps: ShutdownDeps): Promise<void> {
  const { tracker, logger } = deps;
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<"grace">((resolve) => (timer = setTimeout(() => resolve("grace"), graceMs)));
  const first = await Promise.race([tracker.allFinished().then(() => "done" as const), graceOver]);
  clearTimeout(timer);
  if (first === "done") return;
  // Runs that outlive the controller (Kubernetes Jobs) are left running, and Running, for the next controller.
  const action = deps.detaches
    ? "leaving the runs still running to the next controller"
    : "stopping the runs still running";
  logger.warn(`grace period over; ${action}`, { runs: tracker.running.size, grace_ms: graceMs });
  for (const active of tracker.running.values()) {
    active.stop.shutdownReason = `the controller shut down before the run finished (grace period of ${Math.round(graceMs / 1000)} s ended)`;
    active.leave();
  }
  await tracker.allFinished();
}
