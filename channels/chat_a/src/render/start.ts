import { type Ticket, truncate } from "@errand/channel-sdk";
import { type ChatAMessage, section } from "./blocks.js";
import { fallback, footer, type RenderContext, ticketParts } from "./common.js";
import { escapeMrkdwn } from "./escape.js";
import { fitMessage } from "./fit.js";

/** NotifyStart: "Agent started working on: <title>, using <engine>", with a link to the ticket. */
export function renderStart(ticket: Ticket, engine: string, ctx: RenderContext = {}): ChatAMessage {
  const { label, link } = ticketParts(ticket);
  const name = truncate(engine.trim(), 100);
  const using = name ? `, using *${escapeMrkdwn(name)}*` : "";
  return fitMessage({
    text: fallback(`Agent started working on: ${label}${name ? `, using ${name}` : ""}`),
    blocks: [section(`:rocket: Agent started working on: *${link}*${using}`), ...footer(ticket, ctx)],
  });
}
