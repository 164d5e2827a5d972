import { formatCost, formatDuration, formatTokens, type TaskResult, type Ticket } from "@errand/channel-sdk";
import { type Embed, type EmbedField, field, footer, type RenderContext, taskRunFields, ticketParts, title } from "./embed.js";
import { fitMarkdown, markdownLink, safeUrl } from "./escape.js";
import { BUDGET, COLORS } from "./limits.js";

/**
 * NotifyComplete. Success: green, ✅, linked to the pull request, with cost,
 * duration, tokens and the summary. Failure: red, ❌, with the reason first.
 */
export function renderCompleteEmbed(ticket: Ticket, result: TaskResult, ctx: RenderContext = {}): Embed {
  const { label, url, link } = ticketParts(ticket);
  const fields: EmbedField[] = [];
  let embed: Embed;
  if (result.success) {
    const pr = safeUrl(result.pullRequestUrl, BUDGET.url);
    if (pr) fields.push(field("Pull request", markdownLink(pr, pr, BUDGET.url)));
    fields.push(field("Ticket", link));
    const summary = result.summary.trim();
    embed = { title: title(`✅ Completed: ${label}`), color: COLORS.success, fields };
    if (summary) embed.description = fitMarkdown(summary, BUDGET.description);
    const target = pr ?? url;
    if (target) embed.url = target;
  } else {
    const reason = result.failureReason.trim() || "No reason was given.";
    fields.push(field("Ticket", link));
    embed = {
      title: title(`❌ Failed: ${label}`),
      description: `**Reason**\n${fitMarkdown(reason, BUDGET.reason)}`,
      color: COLORS.failure,
      fields,
    };
    if (url) embed.url = url;
  }
  fields.push(...factFields(result), ...taskRunFields(ctx));
  if (!result.success && result.summary.trim()) fields.push(field("Summary", fitMarkdown(result.summary.trim(), BUDGET.summaryField)));
  const foot = footer(ticket);
  if (foot) embed.footer = foot;
  return embed;
}

function factFields(result: TaskResult): EmbedField[] {
  const facts: EmbedField[] = [];
  const cost = formatCost(result.costUsd);
  if (cost !== undefined) facts.push(field("Cost", cost, true));
  const duration = formatDuration(result.durationMs);
  if (duration !== undefined) facts.push(field("Duration", duration, true));
  const tokens = formatTokens(result.tokenUsage);
  if (tokens !== undefined) facts.push(field("Tokens", tokens, true));
  return facts;
}
