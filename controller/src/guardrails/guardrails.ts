import type { GuardrailsConfig } from "../config/controller-config.js";
import type { Guardrails } from "../runs/guardrails-port.js";
import { compileRepoPattern, type RepoPattern } from "./repo-pattern.js";
import { parseRepoUrl } from "./repo-url.js";

export type { Guardrails, GuardrailVerdict } from "../runs/guardrails-port.js";
export { refusedResult } from "../runs/refused-result.js";

/** Builds {@link Guardrails}; the config loader has checked the patterns already. */
export function createGuardrails(
  config: Pick<GuardrailsConfig, "maxConcurrentJobs" | "maxJobDurationMinutes" | "maxCostPerJob" | "allowedRepos">,
): Guardrails {
  const patterns: RepoPattern[] = [];
  for (const entry of config.allowedRepos) {
    const compiled = compileRepoPattern(entry);
    if (typeof compiled === "string")
      throw new TypeError(`guardrails.allowed_repos entry ${JSON.stringify(entry)} ${compiled}`);
    patterns.push(compiled);
  }
  const max = config.maxCostPerJob;
  const money = (usd: number) => `$${usd.toFixed(2)}`;
  return {
    maxDurationMs: config.maxJobDurationMinutes * 60_000,
    maxCostUsd: max,
    admit(ticket) {
      if (patterns.length === 0) return { allowed: true };
      if (ticket.repoUrl === "") {
        return {
          allowed: false,
          reason: "refused by guardrails.allowed_repos: the ticket names no repository (repo_url is empty)",
        };
      }
      const parsed = parseRepoUrl(ticket.repoUrl);
      // Refused before any pattern is tried, even under "**": git could contact another host or path than the one matched.
      if (!parsed.ok)
        return {
          allowed: false,
          reason: `refused by guardrails.allowed_repos: repo_url ${JSON.stringify(ticket.repoUrl)} ${parsed.reason}`,
        };
      if (patterns.some((p) => p.matches(parsed.repo))) return { allowed: true };
      return {
        allowed: false,
        reason: `refused by guardrails.allowed_repos: ${ticket.repoUrl} matches none of ${patterns.map((p) => p.source).join(", ")}`,
      };
    },
    overCost(costUsd) {
      return max !== undefined && costUsd !== undefined && costUsd > max;
    },
    describeCost(costUsd) {
      return `cost ${money(costUsd)} passed guardrails.max_cost_per_job (${money(max ?? 0)})`;
    },
  };
}
