import type { TaskResult } from "@errand/channel-sdk";

/** The result recorded for a run a guardrail refused before it started. */
export function refusedResult(reason: string): TaskResult {
  return { success: false, summary: "", pullRequestUrl: "", failureReason: reason };
}
