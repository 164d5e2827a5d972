import type { Ticket } from "@errand/channel-sdk";
import type { GuardrailsConfig } from "../guardrails/guardrails-schema.js";
import { compileRepoPattern, type RepoPattern } from "../guardrails/repo-pattern.js";
import { parseRepoUrl } from "../guardrails/repo-url.js";

/**
 * `guardrails.require_approval`, compiled: true when a new ticket's run
 * must wait for approval. Any rule that matches holds it; `engine` is the
 * engine the run will use. Undefined when no rule is configured.
 */
export function compileApprovalRules(
  config: Pick<GuardrailsConfig, "requireApproval">,
  engine: string,
): ((ticket: Ticket) => boolean) | undefined {
  const rules = config.requireApproval;
  if (rules === undefined) return undefined;
  if (rules.always === true || rules.engines?.includes(engine) === true) return () => true;
  const labels = new Set((rules.labels ?? []).map((l) => l.toLowerCase()));
  const sources = new Set(rules.sources ?? []);
  const repos = (rules.repos ?? []).map((entry) => {
    const compiled = compileRepoPattern(entry);
    if (typeof compiled === "string")
      throw new TypeError(`guardrails.require_approval.repos entry ${JSON.stringify(entry)} ${compiled}`);
    return compiled;
  });
  if (labels.size === 0 && sources.size === 0 && repos.length === 0) return undefined;
  return (ticket) =>
    sources.has(ticket.source)
    || ticket.labels.some((l) => labels.has(l.toLowerCase()))
    || matchesRepo(repos, ticket.repoUrl);
}

/** True when `repoUrl` is a plain repository address that one of `patterns` matches. */
function matchesRepo(patterns: readonly RepoPattern[], repoUrl: string): boolean {
  if (patterns.length === 0 || repoUrl === "") return false;
  const parsed = parseRepoUrl(repoUrl);
  // A repo_url git could read otherwise is Refused by allowed_repos, or waits here: never let it slip past a rule.
  if (!parsed.ok) return true;
  return patterns.some((p) => p.matches(parsed.repo));
}
