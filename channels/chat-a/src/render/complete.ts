import type { TaskResult, Ticket } from "@errand/channel-sdk";
import { type Block, type ChatAMessage, fields, header, section, sections, sectionsOfLines } from "./blocks.js";
import { fallback, footer, type RenderContext, ticketParts } from "./common.js";
import { escapeMrkdwn, fitMrkdwn, fitMrkdwnLink, safeUrl, shortUrlLabel } from "./escape.js";
import { resultFacts } from "./facts.js";
import { fitMessage } from "./fit.js";
import { BUDGET, SLACK_LIMITS } from "./limits.js";

/**
 * NotifyComplete. Success: title, pull request link, cost, duration, tokens
 * and the summary. Failure: a distinct header (❌ instead of ✅) and the
 * reason, quoted, before anything else.
 */
export function renderComplete(ticket: Ticket, result: TaskResult, ctx: RenderContext = {}): ChatAMessage {
  return result.success ? success(ticket, result, ctx) : failure(ticket, result, ctx);
}

function success(ticket: Ticket, result: TaskResult, ctx: RenderContext): ChatAMessage {
  const { label, link } = ticketParts(ticket, SLACK_LIMITS.sectionText - "**".length);
  const pr = pullRequest(result.pullRequestUrl);
  const lines = [`*${link}*`, ...(pr ? [pr.line] : [])];
  const blocks: Block[] = [header(`✅ Completed: ${label}`), ...sectionsOfLines(lines)];
  blocks.push(...factsBlock(result), ...summaryBlocks(result.summary), ...footer(ticket, ctx));
  return fitMessage({ text: completedFallback(label, pr), blocks });
}

const PR_LEAD = ":link: Pull request: ";

/**
 * The pull request's line, linked to its full URL. When that link does not
 * fit the line with the URL as its label, the label becomes host and path.
 * A URL too long to be linked at all (over the URL budget, or over the
 * section once its `&` are escaped) shows as host and path in code, which no
 * client turns into a link to the cut text, with a note saying why.
 */
function pullRequest(raw: string | undefined): { line: string; url: string | undefined } | undefined {
  const room = SLACK_LIMITS.sectionText - PR_LEAD.length;
  const url = safeUrl(raw, BUDGET.url);
  if (url) {
    const link = fitMrkdwnLink(url, url, room, { maxUrlLength: BUDGET.url, shortLabel: shortUrlLabel(url) });
    if (link) return { line: `${PR_LEAD}${link}`, url };
  }
  const long = safeUrl(raw, Number.MAX_SAFE_INTEGER);
  if (!long) return undefined;
  const shown = escapeMrkdwn(shortUrlLabel(long).replace(/`/g, "%60"));
  return { line: `${PR_LEAD}\`${shown}\` _(not linked: the URL is too long for a link)_`, url: undefined };
}

// The fallback shows in notifications, where the client links bare URLs: a URL that does not fit whole is left out.
function completedFallback(label: string, pr: { url: string | undefined } | undefined): string {
  const withUrl = `Completed: ${label} (pull request: ${pr?.url})`;
  if (pr?.url && escapeMrkdwn(withUrl.replace(/\s+/g, " ").trim()).length <= BUDGET.fallbackText)
    return fallback(withUrl);
  return fallback(`Completed: ${label}${pr ? " (pull request: see the message)" : ""}`);
}

function failure(ticket: Ticket, result: TaskResult, ctx: RenderContext): ChatAMessage {
  const { label, link } = ticketParts(ticket, SLACK_LIMITS.sectionText - "**".length);
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
