// Reads `codex exec --json` (Codex CLI; event and item shapes from openai/codex docs/exec.md,
// "JSON output mode", and codex-rs/exec/src/exec_events.rs): thread.started, turn.started,
// turn.completed {usage: {input_tokens, cached_input_tokens, output_tokens}}, turn.failed
// {error: {message}}, item.started / item.updated / item.completed {item: {id, type, ...}}
// with item types agent_message {text}, reasoning {text}, command_execution {command,
// aggregated_output, exit_code, status}, file_change {changes: [{path, kind}], status},
// mcp_tool_call {server, tool, status}, web_search {query}, todo_list, error {message};
// and error {message}. Codex reports no cost. A top-level `error` is not final by itself:
// codex emits "Reconnecting... 1/5" as one and then goes on (openai/codex#32984), so the
// last turn.completed or turn.failed decides.
import type { TaskResult, TokenUsage } from "@errand/channel-sdk";
import type { EngineEvent, EngineExit, OutputParser } from "../engine.js";
import { exitProblem } from "../output/exit-problem.js";
import { asArray, asCount, asObject, asString } from "../output/json-fields.js";
import { createJsonLineReader, oversizedNote } from "../output/json-line.js";
import { createLineTail } from "../output/line-tail.js";
import { progressText } from "../output/progress-text.js";
import { readPullRequest } from "../output/pull-request.js";
import { toTaskResult } from "../output/task-result.js";
import { sumUsage } from "../output/token-usage.js";

const WHO = "codex";

/** The parser of one Codex run; tokens are summed over its turn.completed events. */
export function createCodexParser(): OutputParser {
  const json = createJsonLineReader();
  const stderr = createLineTail();
  const turns: TokenUsage[] = [];
  let lastTurn: "completed" | "failed" | undefined;
  let turnError: string | undefined;
  let lastError: string | undefined;
  let lastMessage = "";

  const item = (phase: Phase, value: unknown): EngineEvent[] => {
    const it = asObject(value);
    if (it.type !== "agent_message") return itemProgress(phase, it);
    if (phase !== "completed") return [];
    lastMessage = asString(it.text) ?? lastMessage;
    return progressEvent(progressText(asString(it.text) ?? ""), "message");
  };

  return {
    line(stream, text) {
      if (stream === "stderr") {
        stderr.push(text);
        return [];
      }
      const event = json.read(text);
      if (event === undefined) return [];
      switch (event.type) {
        case "thread.started":
          return [{ kind: "progress", text: "codex started", detail: "status" }];
        case "item.started":
        case "item.completed":
          return item(event.type === "item.started" ? "started" : "completed", event.item);
        case "turn.completed": {
          lastTurn = "completed";
          const u = asObject(event.usage);
          turns.push({
            inputTokens: asCount(u.input_tokens),
            outputTokens: asCount(u.output_tokens),
            cachedInputTokens: asCount(u.cached_input_tokens),
          });
          return [{ kind: "usage", usage: sumUsage(turns) }];
        }
        case "turn.failed":
          lastTurn = "failed";
          turnError = asString(asObject(event.error).message) ?? "no message";
          return [];
        case "error": {
          lastError = asString(event.message) ?? "no message";
          const shown = progressText(`codex: ${lastError}`);
          return shown === undefined ? [] : [{ kind: "progress", text: shown, detail: "status" }];
        }
        default:
          return [];
      }
    },
    finish(exit: EngineExit): TaskResult {
      const problem = exitProblem(exit, WHO, stderr);
      const { url, summary } = readPullRequest(lastMessage);
      let failureReason: string | undefined;
      if (lastTurn === "failed") failureReason = `codex turn failed: ${turnError}`;
      else if (lastTurn === undefined) {
        const said = lastError === undefined ? "" : ` (last error: ${lastError})`;
        failureReason = `${problem ?? `${WHO} exited`} without completing a turn${said}${oversizedNote(json)}`;
      } else if (problem !== undefined) failureReason = `codex completed its turn, but ${problem}`;
      return toTaskResult({
        failureReason,
        summary,
        pullRequestUrl: url,
        costUsd: undefined,
        tokenUsage: turns.length === 0 ? undefined : sumUsage(turns),
        durationMs: exit.durationMs,
      });
    },
  };
}

type Phase = "started" | "completed";

function progressEvent(text: string | undefined, detail: "message" | "tool" | "status"): EngineEvent[] {
  return text === undefined ? [] : [{ kind: "progress", text, detail }];
}

/** The progress an item other than the agent's message shows: commands, edits, tool calls, searches, errors. */
function itemProgress(phase: Phase, it: Record<string, unknown>): EngineEvent[] {
  switch (it.type) {
    case "command_execution":
      return phase === "started" ? progressEvent(progressText(`$ ${asString(it.command) ?? ""}`, 200), "tool") : [];
    case "file_change": {
      if (phase !== "completed") return [];
      const paths = asArray(it.changes)
        .map((c) => asString(asObject(c).path))
        .filter((p) => p !== undefined);
      const verb = it.status === "failed" ? "could not edit" : "edited";
      return progressEvent(progressText(`${verb} ${paths.join(", ") || "files"}`, 200), "tool");
    }
    case "mcp_tool_call":
      return phase === "started"
        ? progressEvent(`${asString(it.server) ?? "mcp"}.${asString(it.tool) ?? "tool"}`, "tool")
        : [];
    case "web_search":
      return phase === "started"
        ? progressEvent(progressText(`web search: ${asString(it.query) ?? ""}`, 200), "tool")
        : [];
    case "error":
      return phase === "completed"
        ? progressEvent(progressText(`codex: ${asString(it.message) ?? "error"}`), "status")
        : [];
    default:
      return [];
  }
}
