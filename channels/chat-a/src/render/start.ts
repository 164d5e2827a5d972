import type { Ticket } from "@errand/channel-sdk";
import { truncate } from "@errand/channel-sdk/helpers";
import { type ChatAMessage, section } from "./blocks.js";
import { fallback, footer, type RenderContext, ticketParts } from "./common.js";
import { escapeMrkdwn } from "./escape.js";
import { fitMessage } from "./fit.js";
import { SLACK_LIMITS } from "./limits.js";

/** NotifyStart: "Agent started working on: <title>, using <engine>", with a link to the ticket. */
export function renderStart(ticket: Ticket, engine: string, ctx: RenderContext = {}): ChatAMessage {
  const name = truncate(engine.trim(), 100);
  const using = name ? `, using *${escapeMrkdwn(name)}*` : "";
  const lead = ":rocket: Agent started working on: *";
  const { label, link } = ticketParts(ticket, SLACK_LIMITS.sectionText - lead.length - "*".length - using.length);
  return fitMessage({
    text: fallback(`Agent started working on: ${label}${name ? `, using ${name}` : ""}`),
    blocks: [section(`${lead}${link}*${using}`), ...footer(ticket, ctx)],
  });
}
