import type { Ticket } from "@errand/channel-sdk";
import { didYouMean } from "../config/did-you-mean.js";
import type { FollowUpContext } from "../runs/follow-up.js";
import { DEFAULT_PROMPT_TEMPLATE, PROMPT_PLACEHOLDERS, type PromptPlaceholder } from "./prompt-template.js";
import { reviewCommentsText } from "./review-comments-text.js";

/** `{{ name }}`, spaces inside the braces allowed. */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const KNOWN: ReadonlySet<string> = new Set(PROMPT_PLACEHOLDERS);

/**
 * The prompt for a ticket: `template` (the built-in one when undefined) with
 * each `{{placeholder}}` replaced by the ticket's value, in one pass, so text
 * in the ticket that looks like a placeholder stays as written. Empty values
 * read "(none)". An unknown placeholder is left as written (the config loader
 * refuses it first, see {@link checkPromptTemplate}).
 */
export function buildPrompt(
  ticket: Ticket,
  template: string = DEFAULT_PROMPT_TEMPLATE,
  followUp?: FollowUpContext,
): string {
  const values = placeholderValues(ticket, followUp);
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    KNOWN.has(name) ? values[name as PromptPlaceholder] : whole,
  );
}

/**
 * What is wrong with a user's prompt template, one sentence per problem
 * (empty when it can be used): unknown or empty placeholders, a `{{`
 * without its `}}`, an empty template.
 */
export function checkPromptTemplate(template: string): string[] {
  if (template.trim() === "") return ["the prompt template is empty; remove it to use the built-in one"];
  const problems: string[] = [];
  const known = PROMPT_PLACEHOLDERS.map((p) => `{{${p}}}`).join(", ");
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? "";
    if (KNOWN.has(name)) continue;
    const line = lineOf(template, match.index);
    if (name === "") {
      problems.push(`empty placeholder ${match[0]} on line ${line}; the placeholders are ${known}`);
      continue;
    }
    const guess = closest(name);
    const hint = guess === undefined ? "" : ` (did you mean {{${guess}}}?)`;
    problems.push(`unknown placeholder {{${name}}} on line ${line}${hint}; the placeholders are ${known}`);
  }
  const unclosed = unclosedOpening(template);
  if (unclosed !== undefined)
    problems.push(`"{{" on line ${lineOf(template, unclosed)} has no closing "}}"; write placeholders as {{title}}`);
  return problems;
}

function placeholderValues(ticket: Ticket, followUp: FollowUpContext | undefined): Record<PromptPlaceholder, string> {
  const or = (value: string) => (value.trim() === "" ? "(none)" : value);
  return {
    id: or(ticket.id),
    title: or(ticket.title),
    description: or(ticket.description),
    ticket_type: or(ticket.ticketType),
    repo_url: or(ticket.repoUrl),
    external_url: or(ticket.externalUrl),
    labels: ticket.labels.length === 0 ? "(none)" : ticket.labels.join(", "),
    source: or(ticket.source),
    pull_request_url: or(followUp?.pullRequest.url ?? ""),
    branch: or(followUp?.pullRequest.branch ?? ""),
    review_comments: or(followUp === undefined ? "" : reviewCommentsText(followUp)),
  };
}

// The first "{{" that does not start a placeholder (nor sit inside one).
function unclosedOpening(template: string): number | undefined {
  const covered = [...template.matchAll(PLACEHOLDER)].map((m) => [m.index, m.index + m[0].length] as const);
  for (let at = template.indexOf("{{"); at !== -1; at = template.indexOf("{{", at + 1)) {
    if (!covered.some(([start, end]) => at >= start && at < end)) return at;
  }
  return undefined;
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
}

// Case, dashes and camelCase are the usual slips ({{repoUrl}}, {{Title}}, {{ticket-type}}); didYouMean covers typos.
function closest(name: string): PromptPlaceholder | undefined {
  const squash = (s: string) => s.replace(/[-_\s]/g, "").toLowerCase();
  const same = PROMPT_PLACEHOLDERS.find((p) => squash(p) === squash(name));
  const typo = didYouMean(name, PROMPT_PLACEHOLDERS);
  return same ?? PROMPT_PLACEHOLDERS.find((p) => p === typo);
}
