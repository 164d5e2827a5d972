import type { Ticket } from "@errand/channel-sdk";
import { ticketLink, truncate } from "@errand/channel-sdk/helpers";
import { cutMarkdown, escapeMarkdown, fitMarkdown, fitMarkdownLink, safeUrl } from "./escape.js";
import { BUDGET, DISCORD_LIMITS } from "./limits.js";

/** An embed field. */
export interface EmbedField {
  name: string;
  value: string;
  inline?: boolean;
}

/** The embed object this channel sends. */
export interface Embed {
  title: string;
  url?: string;
  description?: string;
  color: number;
  fields?: EmbedField[];
  footer?: { text: string };
}

/** What every renderer needs besides the ticket. */
export interface RenderContext {
  taskRunId?: string;
}

/**
 * The ticket's label (`#123 Title`), URL and markdown link, the link at most
 * `room` characters: the label is shortened before the URL is ever cut, and
 * without a usable URL (or room for it) the label stands alone, unlinked.
 */
export function ticketParts(
  ticket: Ticket,
  room: number = DISCORD_LIMITS.fieldValue,
): { label: string; url: string | undefined; link: string } {
  const { url, label } = ticketLink(ticket, { maxLabelLength: BUDGET.label });
  const link = fitMarkdownLink(url, label, room, { maxUrlLength: BUDGET.url }) ?? fitMarkdown(label, room);
  // Only a well-formed http(s) URL may become the embed's `url`; anything else is refused by the platform.
  return { label, url: safeUrl(url, BUDGET.url), link };
}

/** An embed title: one line of plain text, at most 256 characters. */
export function title(text: string): string {
  return truncate(text.replace(/\s+/g, " ").trim(), DISCORD_LIMITS.title);
}

/** A field; an empty value would be refused, so it becomes "—". */
export function field(name: string, value: string, inline = false): EmbedField {
  return {
    name: truncate(name, DISCORD_LIMITS.fieldName) || "—",
    value: cutMarkdown(value, DISCORD_LIMITS.fieldValue) || "—",
    ...(inline ? { inline: true } : {}),
  };
}

/** The task-run field, when the run is known. */
export function taskRunFields(ctx: RenderContext): EmbedField[] {
  return ctx.taskRunId ? [field("Task run", `\`${truncate(ctx.taskRunId.replace(/`/g, "'"), 100)}\``, true)] : [];
}

/** Footer: the ticket's source and labels, when known. */
export function footer(ticket: Ticket): { text: string } | undefined {
  const parts = [ticket.source, ticket.labels.filter((l) => l.trim() !== "").join(", ")].filter((p) => p.trim() !== "");
  return parts.length > 0 ? { text: truncate(parts.join(" · "), BUDGET.labels) } : undefined;
}

export { escapeMarkdown };
