import type { TaskResult } from "@errand/channel-sdk";
import { ConflictError, NotFoundError } from "../errors.js";
import type { TaskRun } from "../runs/task-run.js";

/** The error every store throws for a run id it does not hold. */
export function runNotFound(runId: string): NotFoundError {
  return new NotFoundError(`no run with id ${runId}`, {
    hint: "list the runs with `errand runs` and copy an id from there",
  });
}

/** The error of `retry` on a run that has not finished. */
export function retryUnfinished(run: Pick<TaskRun, "id" | "state">): ConflictError {
  return new ConflictError(`run ${run.id} is ${run.state}: only a finished run can be retried`, {
    hint: `wait for it to finish, or stop it first with \`errand runs cancel ${run.id}\``,
  });
}

/** The error of `retry` when another attempt of the same ticket is still active. */
export function retryWhileActive(runId: string, active: Pick<TaskRun, "id" | "state">): ConflictError {
  return new ConflictError(`cannot retry run ${runId}: attempt ${active.id} of the same ticket is ${active.state}`, {
    hint: `wait for ${active.id} to finish, or cancel it with \`errand runs cancel ${active.id}\``,
  });
}

/** The error of `requestCancel` on a finished run. */
export function cancelFinished(run: Pick<TaskRun, "id" | "state">): ConflictError {
  return new ConflictError(`run ${run.id} already ended (${run.state}); there is nothing to cancel`, {
    hint: `to run the ticket again, use \`errand runs retry ${run.id}\``,
  });
}

/** The result stored with a run cancelled before it started, so every finished run has one. */
export function cancelledBeforeStart(reason: string): TaskResult {
  return { success: false, summary: "", pullRequestUrl: "", failureReason: reason };
}

/** The reason of the transition that creates attempt 1 of an accepted ticket. */
export function acceptedReason(source: string): string {
  return `accepted from ${source}`;
}
