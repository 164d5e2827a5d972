// Reads `claude -p --output-format stream-json --verbose` (Claude Code 2.x). Message shapes
// followed: the Agent SDK's TypeScript reference (SDKSystemMessage `system`/`init`,
// SDKAssistantMessage `assistant` with `message.content` blocks `text` and `tool_use` and
// `message.usage`, SDKUserMessage `user` with `tool_result` blocks, SDKResultMessage `result`
// with `subtype` success | error_max_turns | error_during_execution | error_max_budget_usd |
// error_max_structured_output_retries, `is_error`, `result`, `errors`, `total_cost_usd`,
// `usage`, `num_turns`, `duration_ms`) and the headless docs (docs.anthropic.com, "CLI reference").
import type { TaskResult } from "@errand/channel-sdk";
import type { EngineEvent, EngineExit, OutputParser } from "../engine.js";
import { exitProblem } from "../output/exit-problem.js";
import { asArray, asCost, asNumber, asString } from "../output/json-fields.js";
import { createJsonLineReader, oversizedNote } from "../output/json-line.js";
import { createLineTail } from "../output/line-tail.js";
import { progressText } from "../output/progress-text.js";
import { readPullRequest } from "../output/pull-request.js";
import { toTaskResult } from "../output/task-result.js";
import { claudeUsage, createAssistantLog } from "./claude-code-assistant.js";

const WHO = "claude";
/** What Claude Code prints when it refuses bypassPermissions as root. */
const ROOT_REFUSAL = "cannot be used with root/sudo privileges";
const ROOT_HINT =
  '; claude refuses bypassPermissions as root: run the controller as an ordinary user, or set IS_SANDBOX: "1" in engines.<name>.env when the engine runs in a disposable container';

/** Options of {@link createClaudeCodeParser}. */
export interface ClaudeCodeParserOptions {
  /** The `--max-budget-usd` the run was given, for the reason of a run that stopped at it. */
  maxBudgetUsd?: number | undefined;
}

/**
 * The parser of one Claude Code run. Cost comes only from the final `result`
 * (stream-json has no per-message cost), so its cost event is final: the
 * agent is done and the cost guardrail stops nothing (docs/engines.md).
 */
export function createClaudeCodeParser(options: ClaudeCodeParserOptions = {}): OutputParser {
  const json = createJsonLineReader();
  const stderr = createLineTail();
  const assistant = createAssistantLog();
  let result: Record<string, unknown> | undefined;
  let session: string | undefined;
  // The init line and the result carry the session id; it is reported once, and again only if it changes.
  const sessionEvents = (message: Record<string, unknown>): EngineEvent[] => {
    const id = asString(message.session_id);
    if (id === undefined || id === "" || id === session) return [];
    session = id;
    return [{ kind: "session", id }];
  };

  return {
    line(stream, text) {
      if (stream === "stderr") {
        stderr.push(text);
        return [];
      }
      const message = json.read(text);
      if (message === undefined) return [];
      switch (message.type) {
        case "system":
          if (message.subtype === "init")
            return [
              ...sessionEvents(message),
              {
                kind: "progress",
                text: `claude started (model ${asString(message.model) ?? "default"})`,
                detail: "status",
              },
            ];
          return [];
        case "assistant":
          return assistant.read(message);
        case "result":
          result = message;
          return [...sessionEvents(message), ...resultEvents(message)];
        default:
          return [];
      }
    },
    finish(exit: EngineExit): TaskResult {
      const problem = exitProblem(exit, WHO, stderr);
      const { lastText, apiError } = assistant;
      const liveUsage = assistant.usage();
      if (result === undefined) {
        const api = apiError === undefined ? "" : ` (last API error: ${apiError})`;
        const root = stderr.text(20).includes(ROOT_REFUSAL) ? ROOT_HINT : "";
        const failureReason = `${problem ?? `${WHO} exited`} without a result message${api}${root}${oversizedNote(json)}`;
        const { url, summary } = readPullRequest(lastText);
        return toTaskResult({
          failureReason,
          summary,
          pullRequestUrl: url,
          costUsd: undefined,
          tokenUsage: liveUsage,
          durationMs: exit.durationMs,
        });
      }
      const text = asString(result.result) ?? lastText;
      const { url, summary } = readPullRequest(text);
      let failureReason = resultFailure(result, text, options.maxBudgetUsd);
      if (failureReason === undefined && problem !== undefined)
        failureReason = `${WHO} reported success, but ${problem}`;
      return toTaskResult({
        failureReason,
        summary,
        pullRequestUrl: url,
        costUsd: asCost(result.total_cost_usd),
        tokenUsage: result.usage === undefined ? liveUsage : claudeUsage(result.usage),
        durationMs: exit.durationMs,
      });
    },
  };
}

/** The final cost and usage a result message reports. */
function resultEvents(result: Record<string, unknown>): EngineEvent[] {
  const events: EngineEvent[] = [];
  const cost = asCost(result.total_cost_usd);
  if (cost !== undefined) events.push({ kind: "cost", usd: cost, final: true });
  if (result.usage !== undefined) events.push({ kind: "usage", usage: claudeUsage(result.usage) });
  return events;
}

/** Why a result message is a failure, or undefined when it is a success. */
function resultFailure(result: Record<string, unknown>, text: string, budget: number | undefined): string | undefined {
  const subtype = asString(result.subtype);
  if (subtype === undefined) return "claude's result message has no subtype";
  const errors = asArray(result.errors)
    .map(asString)
    .filter((e): e is string => e !== undefined && e.trim() !== "");
  const detail = errors.length > 0 ? `: ${errors.join("; ")}` : "";
  const turns = asNumber(result.num_turns);
  if (subtype === "success") {
    if (result.is_error !== true) return undefined;
    return `claude reported an error: ${progressText(text, 500) ?? "(no message)"}${detail}`;
  }
  if (subtype === "error_max_turns")
    return `claude stopped at its turn limit (error_max_turns${turns === undefined ? "" : ` after ${turns} turns`})${detail}`;
  if (subtype === "error_max_budget_usd") return `${budgetReason(asCost(result.total_cost_usd), budget)}${detail}`;
  if (subtype === "error_during_execution") return `claude failed during execution (error_during_execution)${detail}`;
  return `claude ended with ${subtype}${detail}`;
}

/** The reason of a run Claude Code stopped at its `--max-budget-usd`: "cost limit", as when the controller stops one. */
function budgetReason(cost: number | undefined, budget: number | undefined): string {
  const spent = cost === undefined ? "" : ` after spending $${cost.toFixed(2)}`;
  const limit =
    budget === undefined ? "its budget" : `its budget of $${budget.toFixed(2)} (guardrails.max_cost_per_job)`;
  return `cost limit: claude stopped itself at ${limit}${spent} (error_max_budget_usd)`;
}
