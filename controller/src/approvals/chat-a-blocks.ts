import type { Ticket } from "@errand/channel-sdk";
import type { ApprovalDecision } from "../runs/approvals-port.js";
import type { TaskRun } from "../runs/task-run.js";
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

/** The message once decided: who decided and when, the buttons gone. */
export function decidedContent(
  run: TaskRun,
  ticket: Ticket,
  decision: ApprovalDecision,
  userId: string,
  at: number,
): ChatAContent {
  const verb = decision === "approve" ? "Approved" : "Rejected";
  const when = new Date(at).toISOString();
  const then = decision === "approve" ? "it is queued" : "it is Refused";
  return {
    text: `${verb} by ${userId} at ${when}: run ${run.id}`,
    blocks: [section(`*${verb}* by <@${mrkdwnText(userId)}> at ${when}: ${describe(run, ticket)} (${then})`)],
  };
}
