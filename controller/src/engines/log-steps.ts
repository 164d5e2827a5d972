// Turns a run log's lines into readable steps: the JSON Lines of Claude Code (stream-json), Codex (`exec --json`)
// and opencode (`run --format json`) become one short line per message, tool call or result; every other line
// is kept as it is (cut when very long). Used by `errand runs show`; free of terminal concerns so that other viewers can use it too.
import { asArray, asCost, asNumber, asObject, asString } from "./output/json-fields.js";
import { parseJsonObject } from "./output/json-line.js";
import { progressText } from "./output/progress-text.js";
import { toolLabel } from "./presets/tool-label.js";

/** Where a log line came from: its `[stdout] ` / `[stderr] ` / `[errand] ` prefix, if any. */
export type LogSource = "stdout" | "stderr" | "errand" | undefined;

/**
 * One readable step. `label` says what it is (`assistant`, `tool`, `tool result`, `result`, …); `undefined`
 * for a line kept as it is, whose `text` is then the whole line, prefix included.
 */
export interface LogStep {
  source: LogSource;
  label: string | undefined;
  text: string;
}

/** Longest text a step shows; the rest is cut with `…`. */
const MAX_TEXT = 200;
/** Longest text line kept whole; a longer one (a runaway output line) is cut. */
const MAX_KEPT = 1000;
const PREFIX = /^\[(stdout|stderr|errand)\] /;
const CUT_LINE = / \[line truncated: \d+ bytes\]$/;

const step = (label: string, text = ""): LogStep => ({ source: "stdout", label, text });
const short = (text: unknown, max = MAX_TEXT): string => progressText(asString(text) ?? "", max) ?? "";
const lines = (text: string): string => {
  const count = text.trimEnd() === "" ? 0 : text.trimEnd().split("\n").length;
  return `${count} line${count === 1 ? "" : "s"}`;
};

/** The steps of a whole log text (a run's log tail). */
export function logSteps(text: string): LogStep[] {
  return text
    .trimEnd()
    .split("\n")
    .filter((line) => line !== "")
    .flatMap(lineSteps);
}

/** The steps of one log line: none for bookkeeping events, several for a message with several parts. */
export function lineSteps(line: string): LogStep[] {
  const source = PREFIX.exec(line)?.[1] as LogSource;
  const body = source === undefined ? line : line.slice(source.length + 3);
  const kept: LogStep[] = [
    {
      source,
      label: undefined,
      text: line.length > MAX_KEPT ? `${line.slice(0, MAX_KEPT)}… (${line.length - MAX_KEPT} more characters)` : line,
    },
  ];
  if (source === "errand" || source === "stderr" || !body.startsWith("{")) return kept;
  const event = parseJsonObject(body);
  if (event === undefined) {
    const why = CUT_LINE.test(body) ? "cut at the log's line limit" : "not valid JSON";
    const length = body.replace(CUT_LINE, "").length;
    return [
      { source, label: undefined, text: `${source ? `[${source}] ` : ""}{…} (${length} characters of JSON, ${why})` },
    ];
  }
  const steps = claudeSteps(event)
    ?? codexSteps(event)
    ?? openCodeSteps(event) ?? [step("event", short(event.type) || Object.keys(event).join(", "))];
  return steps.map((s) => ({ ...s, source }));
}

/** Formats a step as one line: `assistant: …`, `tool Bash: npm test`, or the kept line; `styleLabel` may colour the label. */
export function formatStep(s: LogStep, styleLabel: (label: string) => string = (label) => label): string {
  if (s.label === undefined) return s.text;
  if (s.text === "") return styleLabel(s.label);
  return `${styleLabel(s.label)}${s.label === "tool" ? " " : ": "}${s.text}`;
}

/** Claude Code's stream-json: `system`, `assistant`, `user` (tool results) and `result`. */
function claudeSteps(event: Record<string, unknown>): LogStep[] | undefined {
  switch (event.type) {
    case "system":
      return event.subtype === "init"
        ? [step("status", `claude started (model ${short(event.model) || "default"})`)]
        : [step("system", short(event.subtype))];
    case "assistant":
      return asArray(asObject(event.message).content).flatMap((block) => contentStep(asObject(block)));
    case "user":
      return asArray(asObject(event.message).content).flatMap((block) => contentStep(asObject(block)));
    case "result":
      return [step("result", claudeResult(event))];
    default:
      return undefined;
  }
}

function contentStep(block: Record<string, unknown>): LogStep[] {
  switch (block.type) {
    case "text":
      return short(block.text) === "" ? [] : [step("assistant", short(block.text))];
    case "thinking":
      return short(block.thinking) === "" ? [] : [step("thinking", short(block.thinking))];
    case "tool_use":
      return [step("tool", toolLabel(asString(block.name) ?? "tool", block.input))];
    case "tool_result": {
      const content =
        typeof block.content === "string"
          ? block.content
          : asArray(block.content)
              .map((part) => asString(asObject(part).text) ?? "")
              .join("\n");
      return [step("tool result", block.is_error === true ? `error: ${short(content)}` : `ok (${lines(content)})`)];
    }
    default:
      return [];
  }
}

function claudeResult(event: Record<string, unknown>): string {
  const subtype = asString(event.subtype) ?? "no subtype";
  const cost = asCost(event.total_cost_usd);
  const turns = asNumber(event.num_turns);
  const duration = asNumber(event.duration_ms);
  const facts = [
    event.is_error === true ? `error: ${short(event.result)}` : subtype,
    cost === undefined ? undefined : `$${cost.toFixed(2)}`,
    turns === undefined ? undefined : `${turns} turn${turns === 1 ? "" : "s"}`,
    duration === undefined ? undefined : `${Math.round(duration / 1000)}s`,
  ];
  return facts.filter((f) => f !== undefined).join(", ");
}

/** Codex's `exec --json`: `thread.*`, `turn.*`, `item.*` and `error`. */
function codexSteps(event: Record<string, unknown>): LogStep[] | undefined {
  const type = asString(event.type) ?? "";
  if (type === "thread.started" || type === "turn.started") return [];
  if (type === "turn.completed") {
    const usage = asObject(event.usage);
    return [
      step(
        "turn completed",
        `${asNumber(usage.input_tokens) ?? 0} tokens in, ${asNumber(usage.output_tokens) ?? 0} out`,
      ),
    ];
  }
  if (type === "turn.failed") return [step("turn failed", short(asObject(event.error).message))];
  // opencode's `error` carries an object `error` instead.
  if (type === "error" && typeof event.message === "string") return [step("error", short(event.message))];
  if (type !== "item.started" && type !== "item.completed") return undefined;
  const item = asObject(event.item);
  const started = type === "item.started";
  switch (item.type) {
    case "agent_message":
      return [step("assistant", short(item.text))];
    case "reasoning":
      return [step("thinking", short(item.text))];
    case "command_execution":
      if (started) return [step("tool", `shell: ${short(item.command)}`)];
      return [
        step(
          "tool result",
          `exit ${asNumber(item.exit_code) ?? "?"} (${lines(asString(item.aggregated_output) ?? "")})`,
        ),
      ];
    case "file_change": {
      const changes = asArray(item.changes).map((c) => `${short(asObject(c).kind)} ${short(asObject(c).path)}`);
      return started ? [] : [step("files", changes.join(", "))];
    }
    case "mcp_tool_call":
      return started ? [step("tool", `${short(item.server)}.${short(item.tool)}`)] : [];
    case "web_search":
      return started ? [step("tool", `web search ${short(item.query)}`)] : [];
    case "error":
      return [step("error", short(item.message))];
    default:
      return started ? [] : [step("item", short(item.type))];
  }
}

/** opencode's `run --format json`: `step_start`, `text`, `tool_use`, `step_finish`, `error` and `done`. */
function openCodeSteps(event: Record<string, unknown>): LogStep[] | undefined {
  const part = asObject(event.part);
  switch (event.type) {
    case "step_start":
      return [];
    case "text":
      return short(part.text) === "" ? [] : [step("assistant", short(part.text))];
    case "tool_use": {
      const state = asObject(part.state);
      const call = step("tool", toolLabel(asString(part.tool) ?? "tool", state.input));
      if (state.status === "error") return [call, step("tool result", `error: ${short(state.error)}`)];
      if (state.status === "completed")
        return [call, step("tool result", `ok (${lines(asString(state.output) ?? "")})`)];
      return [call];
    }
    case "step_finish": {
      const cost = asCost(part.cost);
      const tokens = asObject(part.tokens);
      const facts = [
        short(part.reason) || "finished",
        cost === undefined ? undefined : `$${cost.toFixed(2)}`,
        `${asNumber(tokens.input) ?? 0} tokens in, ${asNumber(tokens.output) ?? 0} out`,
      ];
      return [step("step", facts.filter((f) => f !== undefined).join(", "))];
    }
    case "error": {
      const error = asObject(event.error);
      return [
        step("error", [short(error.name), short(asObject(error.data).message)].filter((t) => t !== "").join(": ")),
      ];
    }
    case "done": {
      const rejected = asArray(event.rejected).map((r) => short(r));
      return [step("done", rejected.length > 0 ? `rejected: ${rejected.join(", ")}` : short(event.reason))];
    }
    default:
      return undefined;
  }
}
