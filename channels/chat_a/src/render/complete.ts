import type { TaskResult, Ticket } from "@errand/channel-sdk";
import { type Block, type ChatAMessage, fields, header, section, sections } from "./blocks.js";
import { fallback, footer, type RenderContext, ticketParts } from "./common.js";
import { fitMrkdwn, mrkdwnLink, safeUrl } from "./escape.js";
import { resultFacts } from "./facts.js";
import { fitMessage } from "./fit.js";
import { BUDGET } from "./limits.js";

/**
 * NotifyComplete. Success: title, pull request link, cost, duration, tokens
 * and the summary. Failure: a distinct header (❌ instead of ✅) and the
 * reason, quoted, before anything else.
 */
export function renderComplete(ticket: Ticket, result: TaskResult, ctx: RenderContext = {}): ChatAMessage {
  return result.success ? success(ticket, result, ctx) : failure(ticket, result, ctx);
}

function success(ticket: Ticket, result: TaskResult, ctx: RenderContext): ChatAMessage {
  const { label, link } = ticketParts(ticket);
  const pr = safeUrl(result.pullRequestUrl, BUDGET.url);
  const lines = [`*${link}*`];
  if (pr) lines.push(`:link: Pull request: ${mrkdwnLink(pr, pr, BUDGET.url)}`);
  const blocks: Block[] = [header(`✅ Completed: ${label}`), section(lines.join("\n"))];
  blocks.push(...factsBlock(result), ...summaryBlocks(result.summary), ...footer(ticket, ctx));
  return fitMessage({ text: fallback(`Completed: ${label}${pr ? ` (pull request: ${pr})` : ""}`), blocks });
}

function failure(ticket: Ticket, result: TaskResult, ctx: RenderContext): ChatAMessage {
  const { label, link } = ticketParts(ticket);
  const reason = result.failureReason.trim() || "No reason was given.";
  const quoted = fitMrkdwn(reason, BUDGET.reason)
    .split("\n")
    .map((line) => `>${line}`)
    .join("\n");
  const blocks: Block[] = [header(`❌ Failed: ${label}`), section(`*${link}*`), section(`*Reason*\n${quoted}`)];
  blocks.push(...factsBlock(result), ...summaryBlocks(result.summary), ...footer(ticket, ctx));
  return fitMessage({ text: fallback(`Failed: ${label}: ${reason}`), blocks });
}

function factsBlock(result: TaskResult): Block[] {
  const facts = resultFacts(result);
  return facts.length > 0 ? [fields(facts.map((f) => `*${f.label}*\n${f.value}`))] : [];
}

function summaryBlocks(summary: string): Block[] {
  const text = summary.trim();
  return text === "" ? [] : sections(`*Summary*\n${fitMrkdwn(text, BUDGET.longText)}`);
}
