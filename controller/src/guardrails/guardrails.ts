import type { TaskResult, Ticket } from "@errand/channel-sdk";
import type { GuardrailsConfig } from "../config/controller-config.js";
import { compileRepoPattern, type RepoPattern } from "./repo-pattern.js";
import { parseRepoUrl } from "./repo-url.js";

/** Why a guardrail refuses or stops a run, in words for the timeline and the chat message. */
export type GuardrailVerdict = { allowed: true } | { allowed: false; reason: string };

/** The guardrails of `guardrails`, compiled once. */
export interface Guardrails {
  /** Checked before a run starts. */
  admit(ticket: Ticket): GuardrailVerdict;
  /** Run time limit in milliseconds. */
  readonly maxDurationMs: number;
  /** Cost limit in USD, undefined when there is none. */
  readonly maxCostUsd: number | undefined;
  /** True when a cost passes the limit. */
  overCost(costUsd: number | undefined): boolean;
  /** Describes a cost beyond the limit, for reasons. */
  describeCost(costUsd: number): string;
}

/** Builds {@link Guardrails}; the config loader has checked the patterns already. */
export function createGuardrails(config: GuardrailsConfig): Guardrails {
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

/** The result recorded for a run a guardrail refused before it started. */
export function refusedResult(reason: string): TaskResult {
  return { success: false, summary: "", pullRequestUrl: "", failureReason: reason };
}
