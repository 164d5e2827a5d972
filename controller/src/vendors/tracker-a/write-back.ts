import { createHash } from "node:crypto";
import type { TaskResult, Ticket } from "@errand/channel-sdk";
import type { LinearSdk } from "@linear/sdk";
import type { TaskRun } from "../../runs/task-run.js";
import { TrackerAError } from "./tracker-a-error.js";
import type { LabelRef, Workspace } from "./workspace.js";

const MAX_SUMMARY = 4_000;

/** Pick-up (spec 3): the in-progress label goes on the issue. Adding a label it has is a no-op, so a repeat is harmless. */
export async function markPickedUp(sdk: LinearSdk, ticket: Ticket, ws: Workspace): Promise<void> {
  confirm(await sdk.updateIssue(ticket.id, { addedLabelIds: [addable(ws.inProgress)] }), "add the in-progress label");
}

/**
 * The run ended (spec 3). Failure: the failed label goes on (which keeps the
 * issue out of later polls) and the in-progress label comes off, in one
 * update. Success: a comment with the pull request link, then both labels
 * come off. The comment's id is derived from the run id and looked up
 * first, so a second call for the same run never posts a second comment.
 * Without `comment` (the progress comment carries the outcome), labels only.
 */
export async function markFinished(
  sdk: LinearSdk,
  ticket: Ticket,
  run: TaskRun,
  result: TaskResult,
  ws: Workspace,
  comment = true,
): Promise<void> {
  if (!result.success) {
    confirm(
      await sdk.updateIssue(ticket.id, { addedLabelIds: [addable(ws.failed)], removedLabelIds: ws.inProgress.ids }),
      "add the failed label",
    );
    return;
  }
  if (comment) await postCompletionComment(sdk, ticket, run, result);
  confirm(
    await sdk.updateIssue(ticket.id, { removedLabelIds: [...ws.inProgress.ids, ...ws.failed.ids] }),
    "remove the in-progress label",
  );
}

/** Posts the completion comment unless this run's is there already. */
async function postCompletionComment(sdk: LinearSdk, ticket: Ticket, run: TaskRun, result: TaskResult): Promise<void> {
  const id = commentIdFor(run.id);
  const existing = await sdk.comments({ first: 1, filter: { id: { eq: id } } });
  if (existing.nodes.length === 0)
    confirm(
      await sdk.createComment({ id, issueId: ticket.id, body: completionComment(run, result) }),
      "post the completion comment",
    );
}

/** The comment posted when a run succeeds (markdown). */
export function completionComment(run: TaskRun, result: TaskResult): string {
  const lines = [
    result.pullRequestUrl
      ? `Errand opened a pull request for this issue: ${result.pullRequestUrl}`
      : "Errand finished this issue without opening a pull request.",
  ];
  const summary = result.summary.trim();
  if (summary !== "") lines.push("", summary.length > MAX_SUMMARY ? `${summary.slice(0, MAX_SUMMARY)}…` : summary);
  lines.push("", `Run \`${run.id}\` (attempt ${run.attempt}).`);
  return lines.join("\n");
}

/**
 * A UUID v4-shaped id for the completion comment of a run, the same every
 * time for the same run (the tracker takes a client-chosen comment id).
 */
export function commentIdFor(runId: string): string {
  const hex = createHash("sha256")
    .update(`errand tracker_a completion comment ${runId}`)
    .digest("hex")
    .slice(0, 32)
    .split("");
  hex[12] = "4";
  hex[16] = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  const h = hex.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

// prepare refuses a configuration whose labels do not exist, so ids[0] is always there.
const addable = (ref: LabelRef) => ref.ids[0] ?? "";

function confirm(payload: { success: boolean }, what: string): void {
  if (!payload.success)
    throw new TrackerAError("rejected", `tracker_a answered success: false to the request to ${what}`, {
      hint: "check the issue and the labels in the tracker",
    });
}
