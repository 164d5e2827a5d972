import type { TaskResult } from "@errand/channel-sdk";
import { describe, expect, it } from "vitest";
import { createGuardrails } from "../../src/guardrails/guardrails.js";
import { finalState, type StopContext } from "../../src/loop/final-state.js";

const guardrails = createGuardrails({
  maxConcurrentJobs: 1,
  maxJobDurationMinutes: 60,
  maxCostPerJob: 1,
  allowedRepos: [],
});
const success: TaskResult = {
  success: true,
  summary: "Done.",
  pullRequestUrl: "https://github.com/acme/shop/pull/9",
  failureReason: "",
  costUsd: 2.51,
};
const stop = (extra: Partial<StopContext> = {}): StopContext => ({
  cancelReason: undefined,
  costUsd: undefined,
  shutdownReason: undefined,
  costLimitPassed: false,
  ...extra,
});

describe("the final state under the cost limit", () => {
  it("a live cost over the limit fails the run even when the process exited on its own before the stop reached it", () => {
    // The output is read after the exit: the stop found no process, so the outcome says nothing was stopped.
    const end = finalState(
      { result: success, stoppedFor: undefined },
      guardrails,
      stop({ costUsd: 2.51, costLimitPassed: true }),
    );
    expect(end.state).toBe("Failed");
    expect(end.reason).toBe("cost limit: stopped, cost $2.51 passed guardrails.max_cost_per_job ($1.00)");
    expect(end.result).toMatchObject({
      success: false,
      failureReason: end.reason,
      pullRequestUrl: success.pullRequestUrl,
    });
  });

  it("a success whose cost over the limit is known only from its result stays Succeeded, marked", () => {
    const end = finalState({ result: success, stoppedFor: undefined }, guardrails, stop({ costUsd: 2.51 }));
    expect(end.state).toBe("Succeeded");
    expect(end.reason).toBe(
      "succeeded: https://github.com/acme/shop/pull/9; over the cost limit: cost $2.51 passed guardrails.max_cost_per_job ($1.00)",
    );
  });

  it("a cancel that came first keeps its own reason", () => {
    const end = finalState(
      { result: { ...success, success: false }, stoppedFor: "cancel" },
      guardrails,
      stop({ cancelReason: "cancelled with errand runs cancel", costLimitPassed: true }),
    );
    expect(end).toMatchObject({ state: "Cancelled", reason: "cancelled with errand runs cancel" });
  });
});
