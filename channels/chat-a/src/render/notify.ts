import type { Ticket } from "@errand/channel-sdk";
import { type ChatAMessage, section, sections } from "./blocks.js";
import { fallback, footer, type RenderContext, ticketParts } from "./common.js";
import { fitMrkdwn } from "./escape.js";
import { fitMessage } from "./fit.js";
import { BUDGET, SLACK_LIMITS } from "./limits.js";

/** Notify: free-form text with the ticket's title and link. */
export function renderNotify(message: string, ticket: Ticket, ctx: RenderContext = {}): ChatAMessage {
  const lead = ":speech_balloon: *";
  const { label, link } = ticketParts(ticket, SLACK_LIMITS.sectionText - lead.length - "*".length);
  const body = message.trim() === "" ? "_(empty message)_" : fitMrkdwn(message.trim(), BUDGET.longText);
  return fitMessage({
    text: fallback(`${label}: ${message}`),
    blocks: [section(`${lead}${link}*`), ...sections(body), ...footer(ticket, ctx)],
  });
}
