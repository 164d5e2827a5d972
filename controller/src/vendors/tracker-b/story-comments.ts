import type { TaskResult } from "@errand/channel-sdk";
import type { TaskRun } from "../../runs/task-run.js";

/** The steps that post a comment; each at most once per run. */
export type CommentStep = "started" | "finished";

/**
 * The comment's `external_id`: marks it as this run's, so a repeated
 * write-back (finished called twice, a restart) finds it and posts nothing.
 */
export function commentMarker(run: TaskRun, step: CommentStep): string {
  return `errand:${run.id}:${step}`;
}

/** Longest agent summary quoted in a comment; the rest is in `errand runs show`. */
const SUMMARY_LIMIT = 4000;

/** The comment posted when a run of the story starts (spec 3). */
export function startedComment(run: TaskRun, movedTo: string | undefined): string {
  const moved = movedTo === undefined ? "" : ` and moved it to ${movedTo}`;
  return `Errand picked this story up${moved}. Run \`${run.id}\` (engine \`${run.engine}\`, attempt ${run.attempt}) is working on it.`;
}

/** The comment posted when the run ended: the pull request link on success, the reason otherwise. */
export function finishedComment(run: TaskRun, result: TaskResult, movedTo: string | undefined): string {
  if (result.success) {
    const pr = result.pullRequestUrl === "" ? "It opened no pull request." : `Pull request: ${result.pullRequestUrl}`;
    const moved = movedTo === undefined ? "" : ` The story was moved to ${movedTo}.`;
    const summary = result.summary.trim() === "" ? "" : `\n\n${clip(result.summary.trim())}`;
    return `Errand finished run \`${run.id}\`. ${pr}${moved}${summary}`;
  }
  const how =
    run.state === "Refused"
      ? "was refused before it started"
      : run.state === "Cancelled"
        ? "was cancelled"
        : run.state === "TimedOut"
          ? "timed out"
          : "failed";
  const reason = result.failureReason.trim() === "" ? run.reason : result.failureReason.trim();
  return [
    `Errand run \`${run.id}\` ${how}: ${clip(reason)}`,
    "",
    `The story is not picked up again on its own; \`errand runs retry ${run.id}\` starts a new attempt.`,
  ].join("\n");
}

function clip(text: string): string {
  return text.length <= SUMMARY_LIMIT ? text : `${text.slice(0, SUMMARY_LIMIT)}…`;
}
