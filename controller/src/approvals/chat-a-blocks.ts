import type { Ticket } from "@errand/channel-sdk";
import type { ApprovalDecision } from "../runs/approvals-port.js";
import type { Actor, TaskRun, Transition } from "../runs/task-run.js";
import { signApprovalValue } from "./approval-signing.js";
import type { ChatAContent } from "./chat-a-api.js";

/** The action ids of the two buttons; the intake routes every `agent_approval_` action to the approval flow. */
export const APPROVE_ACTION = "agent_approval_approve";
export const REJECT_ACTION = "agent_approval_reject";

/** Longest ticket title shown; Block Kit allows 3000 characters in a section. */
const TITLE_LIMIT = 200;

/** Text as chat A's mrkdwn shows it literally: `&`, `<` and `>` escaped. */
const mrkdwnText = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

function describe(run: TaskRun, ticket: Ticket): string {
  const title = ticket.title.length > TITLE_LIMIT ? `${ticket.title.slice(0, TITLE_LIMIT - 1)}…` : ticket.title;
  return `run \`${run.id}\` for ${mrkdwnText(ticket.source)} ticket ${mrkdwnText(ticket.id)}: ${mrkdwnText(title)}`;
}

const section = (text: string) => ({ type: "section", text: { type: "mrkdwn", text } });

/**
 * The approval message: what waits, a link to the console (when it is served), and Approve and
 * Reject buttons whose values carry the run id signed for that decision.
 * `note` adds a line under it (a refused click).
 */
export function waitingContent(
  run: TaskRun,
  ticket: Ticket,
  consoleUrl: string | undefined,
  key: Buffer,
  note?: string,
): ChatAContent {
  const button = (decision: ApprovalDecision) => ({
    type: "button",
    action_id: decision === "approve" ? APPROVE_ACTION : REJECT_ACTION,
    text: { type: "plain_text", text: decision === "approve" ? "Approve" : "Reject" },
    style: decision === "approve" ? "primary" : "danger",
    value: signApprovalValue(key, run.id, decision),
  });
  const blocks: Record<string, unknown>[] = [
    section(
      `*Awaiting approval:* ${describe(run, ticket)}${consoleUrl ? `\n<${consoleUrl}|Open it in the console>` : ""}`,
    ),
    { type: "actions", block_id: "errand_approval", elements: [button("approve"), button("reject")] },
  ];
  if (note !== undefined) blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: mrkdwnText(note) }] });
  return { text: `Awaiting approval: run ${run.id} for ${ticket.source} ticket ${ticket.id}`, blocks };
}

/** How each kind of actor decides, as the updated message says it. */
const HOW: Readonly<Record<Actor["kind"], string>> = {
  chat_a: "in chat A",
  cli: "with the errand CLI",
  console: "in the console",
  controller: "by the controller",
};

/** What the end of the wait was: a verb, and what became of the run. */
function outcome(end: Transition | undefined): { verb: string; after: string } {
  if (end?.to === "Queued") return { verb: "Approved", after: "it is queued to run" };
  if (end?.to === "Cancelled") return { verb: "Cancelled", after: "it will not run" };
  // Only the approval timeout refuses a waiting run without an actor; a person's refusal is a rejection.
  if (end?.to === "Refused") return { verb: end.actor ? "Rejected" : "Timed out", after: "it will not run" };
  return { verb: `Ended (${end?.to ?? "no longer awaiting approval"})`, after: "it will not run" };
}

/**
 * The message once the wait ended, its buttons gone: what ended it (approved, rejected, timed out,
 * cancelled), who and how (chat A, the CLI, the console), when, and the reason stored with the
 * transition. `end` is the run's transition out of AwaitingApproval.
 */
export function endedContent(run: TaskRun, ticket: Ticket, end: Transition | undefined): ChatAContent {
  const { verb, after } = outcome(end);
  const when = new Date(end?.at ?? run.updatedAt).toISOString();
  const actor = end?.actor;
  // Chat A's `from` is the channel the message is in already.
  const from = actor?.from === undefined || actor.kind === "chat_a" ? "" : ` (from ${actor.from})`;
  const plainWho = actor === undefined ? "" : ` by ${actor.name}${from} ${HOW[actor.kind]}`;
  const name = actor?.kind === "chat_a" ? `<@${mrkdwnText(actor.name)}>` : mrkdwnText(actor?.name ?? "");
  const who = actor === undefined ? "" : ` by ${name}${mrkdwnText(from)} ${HOW[actor.kind]}`;
  const blocks: Record<string, unknown>[] = [
    section(`*${verb}*${who} at ${when}: ${describe(run, ticket)} (${after})`),
  ];
  if (end !== undefined) blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: mrkdwnText(end.reason) }] });
  return { text: `${verb}${plainWho} at ${when}: run ${run.id}`, blocks };
}
