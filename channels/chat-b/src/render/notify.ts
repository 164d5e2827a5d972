import type { Ticket } from "@errand/channel-sdk";
import { type Embed, footer, type RenderContext, taskRunFields, ticketParts, title } from "./embed.js";
import { fitMarkdown } from "./escape.js";
import { BUDGET, COLORS } from "./limits.js";

/** Notify: free-form text, titled and linked with the ticket. */
export function renderNotifyEmbed(message: string, ticket: Ticket, ctx: RenderContext = {}): Embed {
  const { label, url } = ticketParts(ticket);
  const text = message.trim();
  const embed: Embed = {
    title: title(`💬 ${label}`),
    description: text === "" ? "*(empty message)*" : fitMarkdown(text, BUDGET.description),
    color: COLORS.info,
    fields: taskRunFields(ctx),
  };
  if (url) embed.url = url;
  const foot = footer(ticket);
  if (foot) embed.footer = foot;
  return embed;
}
