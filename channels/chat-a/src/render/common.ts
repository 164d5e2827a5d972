import type { Ticket } from "@errand/channel-sdk";
import { ticketLink, truncate } from "@errand/channel-sdk/helpers";
import { type Block, context } from "./blocks.js";
import { escapeMrkdwn, fitMrkdwn, fitMrkdwnLink } from "./escape.js";
import { BUDGET, SLACK_LIMITS } from "./limits.js";

/** What every renderer needs besides the ticket. */
export interface RenderContext {
  /** Correlation id of the task run; shown when present. */
  taskRunId?: string;
}

/**
 * The ticket's label (`#123 Title`) and its link in mrkdwn, at most `room`
 * characters: the label is shortened before the URL is ever cut, and without
 * a usable URL (or room for it) the label stands alone, unlinked.
 */
export function ticketParts(ticket: Ticket, room: number = SLACK_LIMITS.sectionText): { label: string; link: string } {
  const { url, label } = ticketLink(ticket, { maxLabelLength: BUDGET.label });
  return { label, link: fitMrkdwnLink(url, label, room, { maxUrlLength: BUDGET.url }) ?? fitMrkdwn(label, room) };
}

/** The context line under a message: task run and labels, when known. */
export function footer(ticket: Ticket, ctx: RenderContext): Block[] {
  const items: string[] = [];
  if (ctx.taskRunId) items.push(`Task run \`${escapeMrkdwn(truncate(ctx.taskRunId.replace(/`/g, "'"), 100))}\``);
  if (ticket.source) items.push(`Source: ${escapeMrkdwn(truncate(ticket.source, 100))}`);
  const labels = ticket.labels.filter((l) => l.trim() !== "");
  if (labels.length > 0) items.push(`Labels: ${escapeMrkdwn(truncate(labels.join(", "), BUDGET.labels))}`);
  return items.length > 0 ? [context(items)] : [];
}

/** Plain-text fallback: one line, escaped, within its budget. */
export function fallback(text: string): string {
  return fitMrkdwn(text.replace(/\s+/g, " ").trim(), BUDGET.fallbackText) || " ";
}
