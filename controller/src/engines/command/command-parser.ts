import type { TaskResult } from "@errand/channel-sdk";
import type { EngineExit, OutputParser } from "../engine.js";
import { exitProblem } from "../output/exit-problem.js";
import { createLineTail } from "../output/line-tail.js";
import { capSummary } from "../output/pull-request.js";
import { toTaskResult } from "../output/task-result.js";
import { createProgressLines } from "./progress-lines.js";
import { readResultFile } from "./result-file.js";

const WHO = "the engine";

/**
 * The parser of `command` engines: progress lines while it runs, the result
 * file at the end (the contract in docs/engines.md). A run succeeds only when
 * the result file says so and the process exited 0.
 */
export function createCommandParser(): OutputParser {
  const progress = createProgressLines();
  const stderr = createLineTail();
  return {
    line(stream, text) {
      if (stream === "stderr") {
        stderr.push(text);
        return [];
      }
      return progress.read(text);
    },
    finish(exit: EngineExit): TaskResult {
      const base = {
        summary: "",
        pullRequestUrl: "",
        costUsd: progress.costUsd,
        tokenUsage: progress.tokenUsage,
        durationMs: exit.durationMs,
      };
      const problem = exitProblem(exit, WHO, stderr);
      if (exit.resultFile === undefined) {
        const failureReason =
          problem === undefined
            ? `${WHO} exited 0 without writing $ERRAND_RESULT_FILE`
            : `${problem}, without writing $ERRAND_RESULT_FILE`;
        return toTaskResult({ ...base, failureReason });
      }
      const read = readResultFile(exit.resultFile);
      if (!read.ok) {
        const failureReason = `result file: ${read.problems.join("; ")}${problem === undefined ? "" : ` (and ${problem})`}`;
        return toTaskResult({ ...base, failureReason });
      }
      const r = read.result;
      let failureReason: string | undefined;
      if (!r.success) {
        const why =
          r.failureReason.trim() === "" ? `${WHO} reported failure without a failure_reason` : r.failureReason.trim();
        failureReason = problem === undefined ? why : `${why} (${problem})`;
      } else if (problem !== undefined) {
        failureReason = `the result file says success, but ${problem}`;
      }
      return toTaskResult({
        failureReason,
        summary: capSummary(r.summary),
        pullRequestUrl: r.pullRequestUrl,
        costUsd: r.costUsd ?? progress.costUsd,
        tokenUsage: r.tokenUsage ?? progress.tokenUsage,
        durationMs: r.durationMs ?? exit.durationMs,
      });
    },
  };
}
