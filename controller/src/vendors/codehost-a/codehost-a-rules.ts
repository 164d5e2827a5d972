import type { Ticket } from "@errand/channel-sdk";
import type { PollCandidate } from "../../sources/polling/poll-adapter.js";
import type { CodehostATicketingConfig } from "./codehost-a-schema.js";

/** The fields of an issue from `GET /repos/{owner}/{repo}/issues` that the rules and the ticket use. */
export interface ListedIssue {
  number: number;
  title: string;
  body?: string | null | undefined;
  html_url: string;
  labels: ReadonlyArray<string | { name?: string | null | undefined }>;
  /** Present when the "issue" is a pull request: the issues API lists both. */
  pull_request?: unknown;
}

/** The keys of `ticketing.config` (codehost_a) that decide which issues are picked up. */
export type CodehostAIssueRules = Pick<
  CodehostATicketingConfig,
  "labels" | "exclude_labels" | "in_progress_label" | "failed_label"
>;
type Rules = CodehostAIssueRules;

/** Label names of an issue, in the code host's order. */
export function labelsOf(issue: ListedIssue): string[] {
  return issue.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))).filter((n) => n !== "");
}

/**
 * The ticket for an issue: `id` is the issue number as text, exactly as the
 * webhook intake maps `issue.number`, so a polled issue and its
 * webhook event are one ticket.
 */
export function toTicket(issue: ListedIssue, repoUrl: string): Ticket {
  return {
    id: String(issue.number),
    title: issue.title,
    description: issue.body ?? "",
    ticketType: "issue",
    repoUrl,
    externalUrl: issue.html_url,
    labels: labelsOf(issue),
    source: "codehost_a",
  };
}

/**
 * Why the rules (spec 3, issue 11) skip an issue, in words; undefined to
 * pick it up. Label names compare exactly, as `prepare` checked them.
 */
export function skipReason(issue: ListedIssue, rules: Rules): string | undefined {
  if (issue.pull_request !== undefined && issue.pull_request !== null)
    return "a pull request, not an issue (the issues API lists both)";
  return labelSkipReason(labelsOf(issue), rules);
}

/**
 * Why the label rules skip an issue carrying `names`; undefined to pick it
 * up. The poller and the webhook intake both judge issues with it, so an
 * issue one of them skips the other skips too.
 */
export function labelSkipReason(names: readonly string[], rules: Rules): string | undefined {
  const labels = new Set(names);
  if (labels.has(rules.failed_label))
    return `carries the failed label "${rules.failed_label}": a run failed, so it is not picked up again (errand runs retry starts it)`;
  if (labels.has(rules.in_progress_label))
    return `carries the in-progress label "${rules.in_progress_label}": a run is under way`;
  const excluded = rules.exclude_labels.filter((l) => labels.has(l));
  if (excluded.length > 0)
    return `carries the excluded label${excluded.length > 1 ? "s" : ""} ${quoted(excluded)} (ticketing.config.exclude_labels)`;
  const missing = rules.labels.filter((l) => !labels.has(l));
  if (missing.length > 0)
    return `lacks the trigger label${missing.length > 1 ? "s" : ""} ${quoted(missing)} (ticketing.config.labels)`;
  return undefined;
}

/** One poll's verdicts. */
export function judge(issues: readonly ListedIssue[], rules: Rules, repoUrl: string): PollCandidate[] {
  return issues.map((issue) => ({ ticket: toTicket(issue, repoUrl), skip: skipReason(issue, rules) }));
}

function quoted(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(", ");
}
