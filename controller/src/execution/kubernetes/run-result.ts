import type { TaskResult } from "@errand/channel-sdk";
import type { EngineExit, OutputParser } from "../../engines/engine.js";
import type { StopReason } from "../execution-backend.js";
import { STOP_REASON_TEXT } from "../local/stop-reasons.js";
import { pushFailure } from "./checkout-status.js";
import type { JobOutcome } from "./job-outcome.js";

/**
 * The run's TaskResult: the engine's parser on the exit the pod shows, then
 * what Kubernetes did leading the failure reason (with the parser's words
 * on the exit when they add to it), then a push that failed, then a stop's
 * reason over everything.
 * Never throws.
 */
export function runResult(parser: OutputParser, outcome: JobOutcome, stopReason: StopReason | undefined): TaskResult {
  let result = parse(parser, outcome.exit);
  const problem = outcome.problem;
  if (problem !== undefined) {
    const detail =
      !problem.withExit || result.success || result.failureReason === "" ? "" : `; ${result.failureReason}`;
    result = { ...result, success: false, failureReason: `${problem.text}${detail}` };
  }
  const push = pushFailure(outcome.checkout);
  if (push !== undefined && result.success) result = { ...result, success: false, failureReason: push };
  if (stopReason !== undefined) result = { ...result, success: false, failureReason: STOP_REASON_TEXT[stopReason] };
  if (result.durationMs === undefined) result = { ...result, durationMs: outcome.exit.durationMs };
  return result;
}

/** The parser's result; a parser that throws (it must not) gives a failure naming that. */
function parse(parser: OutputParser, exit: EngineExit): TaskResult {
  let result: TaskResult;
  try {
    result = parser.finish(exit);
  } catch (error) {
    return {
      success: false,
      summary: "",
      pullRequestUrl: "",
      failureReason: `the engine's output could not be read: ${(error as Error).message}`,
      durationMs: exit.durationMs,
    };
  }
  const problem = exit.resultFileProblem;
  if (problem !== undefined && !result.success && !result.failureReason.includes(problem)) {
    result = {
      ...result,
      failureReason: result.failureReason === "" ? problem : `${result.failureReason} (${problem})`,
    };
  }
  return result;
}
