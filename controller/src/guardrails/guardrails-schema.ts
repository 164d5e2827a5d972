import type * as z from "zod";
import { say } from "../config/problem-codec.js";
import { positive, section, textList, whole } from "../config/schema/kit.js";
import { approvalKeys } from "./approval-schema.js";
import { compileRepoPattern } from "./repo-pattern.js";

/** A list of repository patterns (`allowed_repos`, `require_approval.repos`), each checked as it is compiled. */
const repoPatterns = () =>
  textList("write a list of repository URLs or globs, e.g. [https://github.com/acme/*]").superRefine(
    (entries, ctx) => {
      entries.forEach((entry, i) => {
        const compiled = typeof entry === "string" ? compileRepoPattern(entry) : undefined;
        if (typeof compiled === "string") {
          ctx.addIssue({
            code: "custom",
            path: [i],
            input: entry,
            message: say(compiled, "e.g. acme/app, github.com/acme/* or https://github.com/acme/app"),
          });
        }
      });
    },
    { when: (payload) => Array.isArray(payload.value) },
  );

/** `guardrails` as written in errand.yaml: limits checked before and during every run. */
export const guardrailsSection = section({
  max_concurrent_jobs: whole(1, 256, 2).default(2).meta({ description: "Runs at the same time at most." }),
  max_job_duration_minutes: whole(1, 10_080, 60)
    .default(60)
    .meta({ description: "A run still going after this is stopped (TimedOut)." }),
  max_cost_per_job: positive("write a cost in USD such as 5 or 2.50, or remove the key for no limit").optional().meta({
    description:
      'USD. A cost an engine reports while it works stops the run (Failed, reason "cost limit") once it passes this; claude_code gets it as --max-budget-usd; a cost first known from the final result stops nothing (the run keeps its state, reason "over the cost limit"); engines that report no cost are not limited (docs/engines.md#the-cost-limit). Unset: no limit.',
  }),
  allowed_repos: repoPatterns().default([]).meta({
    description:
      "Repositories runs may target: URLs, `host/owner/repo`, `owner/repo` (any host) or `git@host:owner/repo`; `*` matches within one path segment, `**` across. Host and port are compared exactly (a scheme's default port counts as none), the path ignoring ASCII case. A ticket's repo_url must be an https, http, ssh or scp-like address written plainly: one git could read otherwise (?, #, a backslash, non-ASCII, percent-encoding, . or .. segments) is Refused with the reason, even under `**` (docs/operators-guide.md#how-repo_url-is-read). Empty: every repository, unchecked (a start-up warning says so).",
  }),
  ...approvalKeys(repoPatterns()),
}).meta({ description: "Guardrails: limits checked before and during every run." });

/** `guardrails`, resolved: the section as the controller uses it. */
export const guardrailsConfig = guardrailsSection.transform((g) => ({
  maxConcurrentJobs: g.max_concurrent_jobs,
  maxJobDurationMinutes: g.max_job_duration_minutes,
  /** USD; undefined means no limit. */
  maxCostPerJob: g.max_cost_per_job,
  /** Exact repository URLs or globs; empty means every repository (a start-up warning says so). */
  allowedRepos: g.allowed_repos,
  /** Rules holding new runs in AwaitingApproval; undefined: none wait. */
  requireApproval: g.require_approval,
  /** Chat A user ids and console token labels allowed to decide. */
  approvers: g.approvers,
  approvalTimeoutMs: g.approval_timeout * 1000,
  /** Name of the secret signing chat A's approval buttons; undefined: derived from chat A's webhook secret. */
  approvalSigningSecret: g.approval_signing_secret,
}));

/** `guardrails`, resolved. */
export type GuardrailsConfig = z.output<typeof guardrailsConfig>;
