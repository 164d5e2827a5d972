import type { TaskResult } from "@errand/channel-sdk";
import { formatCost, formatDuration, formatTokens } from "@errand/channel-sdk/helpers";

/** One labelled figure of a task result. */
export interface Fact {
  label: string;
  value: string;
}

/** Cost, duration and token usage of `result`, each only when known. */
export function resultFacts(result: TaskResult): Fact[] {
  const facts: Fact[] = [];
  const cost = formatCost(result.costUsd);
  if (cost !== undefined) facts.push({ label: "Cost", value: cost });
  const duration = formatDuration(result.durationMs);
  if (duration !== undefined) facts.push({ label: "Duration", value: duration });
  const tokens = formatTokens(result.tokenUsage);
  if (tokens !== undefined) facts.push({ label: "Tokens", value: tokens });
  return facts;
}
