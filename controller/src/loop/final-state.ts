import type { TaskResult } from "@errand/channel-sdk";
import type { RunOutcome } from "../execution/execution-backend.js";
import type { Guardrails } from "../runs/guardrails-port.js";
import type { RunState } from "../runs/task-run.js";

/** Where a run that ended goes, why, and the result to store and send. */
export interface FinalState {
  state: RunState;
  reason: string;
  result: TaskResult;
}

/** What the loop knew when it stopped the run, for precise reasons. */
export interface StopContext {
  cancelReason: string | undefined;
  costUsd: number | undefined;
  shutdownReason: string | undefined;
  /**
   * True once a cost the engine reported while working passed the limit.
   * The run then ends Failed for the cost limit even when its process
   * exited before the stop reached it (its output is read after its exit):
   * the rule must not depend on that race.
   */
  costLimitPassed: boolean;
}

const failed = (result: TaskResult, reason: string): TaskResult => ({
  ...result,
  success: false,
  failureReason: reason,
});

/** Maps a run's outcome to its final state (docs/operators-guide.md, "Run states"). */
export function finalState(outcome: RunOutcome, guardrails: Guardrails, stop: StopContext): FinalState {
  const { result } = outcome;
  const stoppedFor = outcome.stoppedFor ?? (stop.costLimitPassed ? "cost" : undefined);
  switch (stoppedFor) {
    case "timeout": {
      const reason = `timed out after ${guardrails.maxDurationMs / 60_000} min (guardrails.max_job_duration_minutes)`;
      return { state: "TimedOut", reason, result: failed(result, reason) };
    }
    case "cancel": {
      const reason = stop.cancelReason ?? "cancelled";
      return { state: "Cancelled", reason, result: failed(result, reason) };
    }
    case "cost": {
      const reason = `cost limit: stopped, ${guardrails.describeCost(stop.costUsd ?? result.costUsd ?? 0)}`;
      return { state: "Failed", reason, result: failed(result, reason) };
    }
    case "shutdown": {
      const reason = stop.shutdownReason ?? "the controller shut down before the run finished";
      return { state: "Failed", reason, result: failed(result, reason) };
    }
    case undefined:
      break;
  }
  if (!result.success) {
    return {
      state: "Failed",
      reason: result.failureReason || "the engine reported a failure without a reason",
      result,
    };
  }
  const pr = result.pullRequestUrl ? `: ${result.pullRequestUrl}` : "";
  if (guardrails.overCost(result.costUsd)) {
    // The work is done (a pull request may be open): the run stays Succeeded, marked so that people see it.
    return {
      state: "Succeeded",
      reason: `succeeded${pr}; over the cost limit: ${guardrails.describeCost(result.costUsd ?? 0)}`,
      result,
    };
  }
  return { state: "Succeeded", reason: `succeeded${pr}`, result };
}
