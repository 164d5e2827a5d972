import type { Ticket } from "@errand/channel-sdk";
import { truncate } from "@errand/channel-sdk/helpers";
import {
  type Embed,
  escapeMarkdown,
  field,
  footer,
  type RenderContext,
  taskRunFields,
  ticketParts,
  title,
} from "./embed.js";
import { BUDGET, COLORS } from "./limits.js";

/** NotifyStart: "Agent started working on: <title>, using <engine>", linked to the ticket. */
export function renderStartEmbed(ticket: Ticket, engine: string, ctx: RenderContext = {}): Embed {
  const name = truncate(engine.trim(), 100);
  const using = name ? `, using **${escapeMarkdown(name)}**` : "";
  const lead = "Agent started working on: **";
  const { label, url, link } = ticketParts(ticket, BUDGET.description - lead.length - "**".length - using.length);
  const embed: Embed = {
    title: title(`🚀 Started: ${label}`),
    description: `${lead}${link}**${using}`,
    color: COLORS.start,
    fields: [...(name ? [field("Engine", escapeMarkdown(name), true)] : []), ...taskRunFields(ctx)],
  };
  if (url) embed.url = url;
  const foot = footer(ticket);
  if (foot) embed.footer = foot;
  return embed;
}
