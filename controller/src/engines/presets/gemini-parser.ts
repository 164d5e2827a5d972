// Reads `gemini --output-format json` (Gemini CLI; docs/cli/headless.md, "JSON output", and
// packages/core/src/output/json-formatter.ts): one pretty-printed object {session_id, response,
// stats, error} on stdout at the end; on a fatal error the same shape with `error: {type,
// message, code}` goes to stderr and the exit code says what failed (FatalError classes in
// packages/core/src/utils/errors.ts: 41 auth, 42 input, 44 sandbox, 52 config, 53 turn limit,
// 54 tool, 130 cancelled). Tokens from stats.models.<model>.tokens {prompt, candidates, cached,
// thoughts} (packages/core/src/telemetry/uiTelemetry.ts). Gemini reports no cost, and nothing
// until it ends, so a run has no live progress.
import type { TaskResult, TokenUsage } from "@errand/channel-sdk";
import type { EngineExit, OutputParser } from "../engine.js";
import { exitProblem } from "../output/exit-problem.js";
import { asCount, asObject, asString } from "../output/json-fields.js";
import { isRecord, MAX_JSON_LINE_CHARS, parseJsonObject } from "../output/json-line.js";
import { createLineTail } from "../output/line-tail.js";
import { readPullRequest } from "../output/pull-request.js";
import { toTaskResult } from "../output/task-result.js";
import { sumUsage } from "../output/token-usage.js";

const WHO = "gemini";
/** What the exit codes of Gemini CLI's fatal errors mean. */
const EXIT_MEANINGS: Readonly<Record<number, string>> = {
  41: "gemini could not authenticate (exit 41); check the API key (auth.api_key_secret, GEMINI_API_KEY)",
  42: "gemini refused its input (exit 42)",
  44: "gemini's sandbox failed (exit 44)",
  52: "gemini's configuration is invalid (exit 52)",
  53: "gemini reached its session turn limit (exit 53)",
  54: "a gemini tool failed fatally (exit 54)",
  130: "gemini was cancelled (exit 130)",
};

/** The parser of one Gemini CLI run: it keeps stdout (up to 4 MiB) and reads the JSON object when the run ends. */
export function createGeminiParser(): OutputParser {
  const stdout = createBoundedText(MAX_JSON_LINE_CHARS);
  const stderrText = createBoundedText(64 * 1024, "tail");
  const stderr = createLineTail();
  return {
    line(stream, text) {
      if (stream === "stderr") {
        stderr.push(text);
        stderrText.add(text);
      } else stdout.add(text);
      return [];
    },
    finish(exit: EngineExit): TaskResult {
      const output = lastJsonObject(stdout.text());
      const failed = lastJsonObject(stderrText.text());
      const error = asObject(output?.error ?? failed?.error);
      const errorMessage = asString(error.message);
      const { url, summary } = readPullRequest(asString(output?.response) ?? "");
      const tokenUsage = output?.stats === undefined ? undefined : geminiUsage(output.stats);
      const base = { summary, pullRequestUrl: url, costUsd: undefined, tokenUsage, durationMs: exit.durationMs };
      // The error object already says what stderr says; repeating its JSON lines would only add noise.
      const problem = exitProblem(exit, WHO, errorMessage === undefined ? stderr : createLineTail());
      const said = errorMessage === undefined ? "" : `: ${errorMessage}`;
      if (exit.exitCode !== undefined && EXIT_MEANINGS[exit.exitCode] !== undefined)
        return toTaskResult({ ...base, failureReason: `${EXIT_MEANINGS[exit.exitCode]}${said}` });
      if (errorMessage !== undefined)
        return toTaskResult({
          ...base,
          failureReason: `gemini reported an error (${asString(error.type) ?? "error"})${said}${problem === undefined ? "" : `; ${problem}`}`,
        });
      if (problem !== undefined) return toTaskResult({ ...base, failureReason: problem });
      if (output === undefined) {
        const over = stdout.overflowed
          ? ` (its output passed ${MAX_JSON_LINE_CHARS / (1024 * 1024)} MiB and was not read)`
          : "";
        return toTaskResult({ ...base, failureReason: `gemini exited 0 without a JSON result on stdout${over}` });
      }
      if (typeof output.response !== "string")
        return toTaskResult({ ...base, failureReason: "gemini's JSON result has no response" });
      return toTaskResult({ ...base, failureReason: undefined });
    },
  };
}

/** Tokens summed over the models in `stats.models`: input is the prompt tokens (cached ones included), output counts thinking tokens too. */
function geminiUsage(stats: unknown): TokenUsage {
  const models = asObject(asObject(stats).models);
  return sumUsage(
    Object.values(models).map((m) => {
      const t = asObject(asObject(m).tokens);
      return {
        inputTokens: asCount(t.prompt),
        outputTokens: asCount(t.candidates) + asCount(t.thoughts),
        cachedInputTokens: asCount(t.cached),
      };
    }),
  );
}

/** The whole text as a JSON object, else the object starting at the last line that is just "{". */
function lastJsonObject(text: string): Record<string, unknown> | undefined {
  const whole = parseJsonObject(text);
  if (whole !== undefined) return whole;
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines[i]?.trim() !== "{") continue;
    const found = parseJsonObject(lines.slice(i).join("\n"));
    if (isRecord(found)) return found;
  }
  return undefined;
}

interface BoundedText {
  add(line: string): void;
  text(): string;
  readonly overflowed: boolean;
}

// Keeps the head (stdout: the JSON object is all there is) or the tail (stderr: the error object comes last).
function createBoundedText(max: number, keep: "head" | "tail" = "head"): BoundedText {
  let lines: string[] = [];
  let size = 0;
  let overflowed = false;
  return {
    get overflowed() {
      return overflowed;
    },
    add(line) {
      if (keep === "head") {
        if (size + line.length + 1 > max) overflowed = true;
        else {
          lines.push(line);
          size += line.length + 1;
        }
        return;
      }
      lines.push(line.length > max ? line.slice(-max) : line);
      size += Math.min(line.length, max) + 1;
      while (size > max && lines.length > 1) {
        size -= (lines[0]?.length ?? 0) + 1;
        lines = lines.slice(1);
      }
    },
    text: () => lines.join("\n"),
  };
}
