import type { TaskResult, Ticket } from "@errand/channel-sdk";
import { formatCost, formatDuration, formatTokens } from "@errand/channel-sdk/helpers";
import {
  type Embed,
  type EmbedField,
  field,
  footer,
  type RenderContext,
  taskRunFields,
  ticketParts,
  title,
} from "./embed.js";
import { fitMarkdown, fitMarkdownLink, safeUrl, shortUrlLabel } from "./escape.js";
import { BUDGET, COLORS, DISCORD_LIMITS } from "./limits.js";

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
    const prValue = pullRequestValue(result.pullRequestUrl, pr);
    if (prValue) fields.push(field("Pull request", prValue));
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
  if (!result.success && result.summary.trim())
    fields.push(field("Summary", fitMarkdown(result.summary.trim(), BUDGET.summaryField)));
  const foot = footer(ticket);
  if (foot) embed.footer = foot;
  return embed;
}

/**
 * The pull request field, linked to the full URL with host and path as its
 * label: the platform prints a masked link whose label holds a URL with a
 * scheme as literal text (discord/discord-api-docs#7721), so the URL itself
 * is never the label.
 * A URL too long for a link in the field is shown as host and path in code
 * (which no client turns into a link to the cut text) with a note: the
 * embed's title still links to it when it is within the URL budget.
 */
function pullRequestValue(raw: string | undefined, linkable: string | undefined): string | undefined {
  if (linkable) {
    const label = shortUrlLabel(linkable);
    const link = fitMarkdownLink(linkable, label, DISCORD_LIMITS.fieldValue, {
      maxUrlLength: BUDGET.url,
      shortLabel: label,
    });
    if (link) return link;
  }
  const url = linkable ?? safeUrl(raw, Number.MAX_SAFE_INTEGER);
  if (!url) return undefined;
  const shown = `\`${shortUrlLabel(url).replace(/`/g, "%60")}\``;
  return linkable
    ? `${shown} (the title links to it: the URL is too long for this field)`
    : `${shown} (not linked: the URL is too long for a link)`;
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
