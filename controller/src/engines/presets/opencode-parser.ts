// Reads `opencode run --format json` (opencode; packages/opencode/src/cli/cmd/run.ts emits one
// JSON object per line {type, timestamp, sessionID, ...}): step_start {part}, text {part: {text}},
// reasoning {part}, tool_use {part: {tool, callID, state: {status, input, output, error, title}}},
// step_finish {part: {reason, cost, tokens: {input, output, reasoning, cache: {read, write}}}}
// (StepFinishPart in packages/opencode/src/session/message-v2.ts), error {error: {name, data:
// {message}}}, and in recent versions done {reason, rejected}. Cost and tokens are summed over
// step_finish, so a run reports its cost while it runs.
import type { TaskResult, TokenUsage } from "@errand/channel-sdk";
import type { EngineEvent, EngineExit, OutputParser } from "../engine.js";
import { exitProblem } from "../output/exit-problem.js";
import { asArray, asCost, asCount, asObject, asString } from "../output/json-fields.js";
import { createJsonLineReader, oversizedNote } from "../output/json-line.js";
import { createLineTail } from "../output/line-tail.js";
import { progressText } from "../output/progress-text.js";
import { readPullRequest } from "../output/pull-request.js";
import { toTaskResult } from "../output/task-result.js";
import { sumUsage } from "../output/token-usage.js";
import { toolLabel } from "./tool-label.js";

const WHO = "opencode";

/** The parser of one opencode run. */
export function createOpencodeParser(): OutputParser {
  const json = createJsonLineReader();
  const stderr = createLineTail();
  const steps: TokenUsage[] = [];
  let cost = 0;
  let stepTexts: string[] = [];
  let answer = "";
  let error: string | undefined;
  let rejected: string[] = [];

  const handle = (event: Record<string, unknown>): EngineEvent[] => {
    const part = asObject(event.part);
    switch (event.type) {
      case "step_start":
        stepTexts = [];
        return [];
      case "text": {
        const text = asString(part.text) ?? "";
        stepTexts.push(text);
        if (text.trim() !== "") answer = stepTexts.join("\n");
        const shown = progressText(text);
        return shown === undefined ? [] : [{ kind: "progress", text: shown, detail: "message" }];
      }
      case "tool_use":
        return [{ kind: "progress", text: toolText(part), detail: "tool" }];
      case "step_finish": {
        steps.push(stepUsage(part));
        cost += asCost(part.cost) ?? 0;
        return [
          { kind: "cost", usd: cost },
          { kind: "usage", usage: sumUsage(steps) },
        ];
      }
      case "error": {
        const e = asObject(event.error);
        error = asString(asObject(e.data).message) ?? asString(e.message) ?? asString(e.name) ?? "unknown error";
        const shown = progressText(`opencode: ${error}`);
        return shown === undefined ? [] : [{ kind: "progress", text: shown, detail: "status" }];
      }
      case "done":
        rejected = asArray(event.rejected)
          .map(asString)
          .filter((r): r is string => r !== undefined);
        return [];
      default:
        return [];
    }
  };

  return {
    line(stream, text) {
      if (stream === "stderr") {
        stderr.push(text);
        return [];
      }
      const event = json.read(text);
      return event === undefined ? [] : handle(event);
    },
    finish(exit: EngineExit): TaskResult {
      const problem = exitProblem(exit, WHO, stderr);
      const { url, summary } = readPullRequest(answer);
      const refused = rejected.length === 0 ? "" : ` (permissions it refused: ${rejected.join(", ")})`;
      let failureReason: string | undefined;
      if (error !== undefined) failureReason = `opencode reported an error: ${error}${refused}`;
      else if (problem !== undefined) failureReason = `${problem}${refused}`;
      else if (steps.length === 0)
        failureReason = `opencode exited without finishing a step (no step_finish event)${oversizedNote(json)}`;
      return toTaskResult({
        failureReason,
        summary,
        pullRequestUrl: url,
        costUsd: steps.length === 0 ? undefined : cost,
        tokenUsage: steps.length === 0 ? undefined : sumUsage(steps),
        durationMs: exit.durationMs,
      });
    },
  };
}

/** A tool call's progress line: its label, and why it failed when it did. */
function toolText(part: Record<string, unknown>): string {
  const state = asObject(part.state);
  const label = toolLabel(asString(part.tool) ?? "tool", state.input);
  return state.status === "error"
    ? `${label} failed: ${progressText(asString(state.error) ?? "", 200) ?? "no message"}`
    : label;
}

/** The tokens of one finished step; cache reads and writes count as input. */
function stepUsage(part: Record<string, unknown>): TokenUsage {
  const tokens = asObject(part.tokens);
  const cache = asObject(tokens.cache);
  return {
    inputTokens: asCount(tokens.input) + asCount(cache.read) + asCount(cache.write),
    outputTokens: asCount(tokens.output) + asCount(tokens.reasoning),
    cachedInputTokens: asCount(cache.read),
  };
}
