import { ConflictError, StoreError } from "../errors.js";
import type { FollowUpContext } from "../runs/follow-up.js";
import type { RunState, TaskRun } from "../runs/task-run.js";
import type { FollowUpRequest } from "./store.js";

/** The error of a follow-up while a run of the same ticket (so of the same pull request) is active. */
export function followUpWhileActive(pullRequestUrl: string, active: Pick<TaskRun, "id" | "state">): ConflictError {
  return new ConflictError(
    `a run is already active for this pull request (${pullRequestUrl}): ${active.id} is ${active.state}`,
    { hint: `the follow-up can be asked for again once ${active.id} has finished` },
  );
}

/** The error of a follow-up of a run that a newer run of the ticket replaced. */
export function followUpOfOlderRun(parentRunId: string, newest: { id: string }): ConflictError {
  return new ConflictError(`run ${parentRunId} is not the newest run of its ticket (${newest.id} is)`, {
    hint: `follow up ${newest.id} instead`,
  });
}

/** The error of a follow-up past the cap. */
export function followUpCapReached(pullRequestUrl: string, max: number): ConflictError {
  return new ConflictError(`pull request ${pullRequestUrl} has had ${max} follow-up runs, the most allowed`, {
    hint: "raise repositories.codehost_a.follow_ups.max_per_pull_request, or continue the work by hand",
  });
}

/**
 * The key a pull request's address is stored and looked up under: trimmed, without a trailing `/`, `#...` or
 * `?...`, in lower case (code hosts treat owner and repository names without case; an agent may print them
 * otherwise than the webhook does). Empty when there is no address.
 */
export function pullRequestKey(url: string | undefined): string {
  return (url ?? "")
    .trim()
    .replace(/[?#].*$/, "")
    .replace(/\/+$/, "")
    .toLowerCase();
}

/** Checks what a caller hands to createFollowUp before any transaction. */
export function checkFollowUpRequest(req: FollowUpRequest): void {
  const { pullRequest } = req.followUp ?? {};
  if (!pullRequest || typeof pullRequest.url !== "string" || pullRequest.url.trim() === "") {
    throw new StoreError("follow-up request lacks the pull request's url", {
      hint: "this is a bug in the caller: pass followUp.pullRequest.url",
    });
  }
  if (!Number.isSafeInteger(req.maxPerPullRequest) || req.maxPerPullRequest < 0) {
    throw new StoreError(`follow-up cap ${req.maxPerPullRequest} is not a whole number of runs >= 0`, {
      hint: "this is a bug in the caller of the store: pass the configured cap",
    });
  }
}

/** A ticket's attempts as the follow-up check reads them, newest first. */
export interface AttemptRow {
  id: string;
  state: RunState;
  attempt: number;
  follow_up: string | null;
}

/**
 * Applies the follow-up rules to the ticket's attempts (read under the
 * ticket's lock, newest first) and returns the next attempt number.
 */
export function nextFollowUpAttempt(req: FollowUpRequest, attempts: readonly AttemptRow[]): number {
  const url = req.followUp.pullRequest.url;
  const key = pullRequestKey(url);
  const active = attempts.find((a) => a.state === "Queued" || a.state === "Running");
  if (active) throw followUpWhileActive(url, active);
  const newest = attempts[0];
  if (newest && newest.id !== req.parentRunId) throw followUpOfOlderRun(req.parentRunId, newest);
  const done = attempts.filter(
    (a) =>
      a.follow_up !== null && pullRequestKey((JSON.parse(a.follow_up) as FollowUpContext).pullRequest?.url) === key,
  ).length;
  if (done >= req.maxPerPullRequest) throw followUpCapReached(url, req.maxPerPullRequest);
  return (newest?.attempt ?? 0) + 1;
}
