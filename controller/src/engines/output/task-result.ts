import type { TaskResult, TokenUsage } from "@errand/channel-sdk";

/** What a parser worked out about a run. */
export interface RunOutcome {
  /** Undefined when the run succeeded. */
  failureReason: string | undefined;
  summary: string;
  pullRequestUrl: string;
  costUsd: number | undefined;
  tokenUsage: TokenUsage | undefined;
  durationMs: number;
}

/** The TaskResult for an outcome: `success` exactly when there is no failure reason. */
export function toTaskResult(outcome: RunOutcome): TaskResult {
  return {
    success: outcome.failureReason === undefined,
    summary: outcome.summary,
    pullRequestUrl: outcome.pullRequestUrl,
    failureReason: outcome.failureReason ?? "",
    costUsd: outcome.costUsd,
    durationMs: outcome.durationMs,
    tokenUsage: outcome.tokenUsage,
  };
}
