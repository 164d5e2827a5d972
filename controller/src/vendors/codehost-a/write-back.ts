import type { TaskResult, Ticket } from "@errand/channel-sdk";
import type { TaskRun } from "../../runs/task-run.js";
import type { CodehostAClient } from "./codehost-a-client.js";
import { isRequestError } from "./codehost-a-error.js";
import type { CodehostATicketingConfig } from "./codehost-a-schema.js";

/** GitHub refuses comment bodies over 65,536 characters; the summary gives way. */
const MAX_SUMMARY = 60_000;

/** Where write-backs go. */
export interface WriteTarget {
  client: CodehostAClient;
  config: Pick<CodehostATicketingConfig, "owner" | "repo" | "in_progress_label" | "failed_label">;
}

/** The hidden line that marks a run's completion comment, so a second `finished` finds it and posts nothing. */
export function runMarker(runId: string): string {
  return `<!-- errand:run ${runId} -->`;
}

/** Pick-up (spec 3): the in-progress label. Adding a label the issue has changes nothing, so a repeat is harmless. */
export async function markPickedUp(target: WriteTarget, ticket: Ticket, signal: AbortSignal): Promise<void> {
  const { client, config } = target;
  await client.rest.issues.addLabels({
    owner: config.owner,
    repo: config.repo,
    issue_number: Number(ticket.id),
    labels: [config.in_progress_label],
    request: { signal },
  });
}

/**
 * The end of a run (spec 3): on failure the failed label (later polls skip
 * the issue), on success a comment with the pull request link; either way
 * the in-progress label goes, since nothing is in progress any more. Each
 * step is safe to repeat: labels are sets, and the comment is posted only
 * when no comment of this run is there yet.
 */
export async function markFinished(
  target: WriteTarget,
  ticket: Ticket,
  run: TaskRun,
  result: TaskResult,
  signal: AbortSignal,
): Promise<void> {
  const { client, config } = target;
  const issue = { owner: config.owner, repo: config.repo, issue_number: Number(ticket.id), request: { signal } };
  if (result.success) {
    const comments = await client.paginate(client.rest.issues.listComments, { ...issue, per_page: 100 });
    const marker = runMarker(run.id);
    if (!comments.some((c) => c.body?.includes(marker) === true))
      await client.rest.issues.createComment({ ...issue, body: completionComment(run, result) });
  } else {
    await client.rest.issues.addLabels({ ...issue, labels: [config.failed_label] });
  }
  try {
    await client.rest.issues.removeLabel({ ...issue, name: config.in_progress_label });
  } catch (error) {
    // 404: the label is not on the issue (removed by hand, or by a first call for this run).
    if (!isRequestError(error) || error.status !== 404) throw error;
  }
}

/** The completion comment: the pull request link first, then the agent's summary. */
export function completionComment(run: TaskRun, result: TaskResult): string {
  const head =
    result.pullRequestUrl === ""
      ? "The agent finished without opening a pull request."
      : `The agent opened a pull request: ${result.pullRequestUrl}`;
  const summary =
    result.summary.length > MAX_SUMMARY ? `${result.summary.slice(0, MAX_SUMMARY)}\n\n… (summary cut)` : result.summary;
  return [head, summary, `<sub>errand run ${run.id}</sub>`, runMarker(run.id)]
    .filter((part) => part.trim() !== "")
    .join("\n\n");
}

/** True when the ticket is an issue of the configured repository (the webhook may carry others' issues under the same numbers). */
export function isOurs(ticket: Ticket, repoUrl: string): boolean {
  const norm = (url: string) => url.trim().replace(/\/+$/, "").toLowerCase();
  return /^[1-9][0-9]*$/.test(ticket.id) && norm(ticket.repoUrl) === norm(repoUrl);
}
