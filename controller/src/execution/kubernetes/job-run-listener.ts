import type { Logger } from "@errand/channel-sdk";
import type { JobListener } from "./cluster-view.js";
import type { JobRunLog } from "./job-run-log.js";
import { type JobRunState, markJobGone } from "./job-run-state.js";
import { engineStarted, engineTerminated, hopelessWaiting, jobFinished, waitingNote } from "./job-status.js";

/** What {@link jobRunListener} acts on. */
export interface JobRunListenerParts {
  /** The Job's uid: events of another Job under the same name are not ours. */
  uid: string;
  state: JobRunState;
  log: JobRunLog;
  /** Deletes the Job (its container can never be created). */
  remove(): void;
  logger: Logger;
}

/**
 * Follows the shared watches' events of the run's Job and pod into the
 * state: the Job's end or deletion, the pod's log once its engine runs, a
 * container that can never be created (the Job is deleted), waiting notes.
 */
export function jobRunListener(parts: JobRunListenerParts): JobListener {
  const { uid, state, log, logger } = parts;
  return {
    job(next, deleted) {
      const ours = next.metadata?.uid === uid;
      if (ours && !deleted) {
        state.job = next;
        if (jobFinished(next)) state.end.fire();
      } else if (ours) {
        state.job = next;
        markJobGone(state, next);
      } else if (!deleted && state.job !== undefined) {
        // Another Job under our name: ours was deleted while the watch was away.
        markJobGone(state, state.job);
      }
    },
    pod(next, deleted) {
      if (!next.metadata?.ownerReferences?.some((ref) => ref.uid === uid)) return;
      state.pod = next;
      if (deleted) {
        if (engineTerminated(next) === undefined) state.podLost = true;
        state.podDeleted.fire();
        return;
      }
      if (!log.following && engineStarted(next) && next.metadata.name !== undefined) log.follow(next.metadata.name);
      const hopeless = hopelessWaiting(next);
      if (hopeless !== undefined && state.fatal === undefined && state.stopReason === undefined) {
        state.fatal = hopeless;
        logger.warn("the engine's container cannot be created; deleting the Job", { reason: hopeless });
        parts.remove();
      }
      const note = waitingNote(next);
      if (note !== undefined && note !== state.lastNote)
        logger.info("the engine's container is waiting", { reason: note });
      state.lastNote = note;
    },
  };
}
