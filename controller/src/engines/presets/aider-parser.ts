// Reads Aider's text output (aider/coders/base_coder.py, calculate_and_show_tokens_and_cost, as
// of aider 0.86): after each model reply it prints "Tokens: 2.1k sent, 1.5k cache write, 3.0k
// cache hit, 235 received." then, when it knows the model's prices, "Cost: $0.01 message,
// $0.05 session." on the same line or the next. Counts are rounded by aider/utils.py
// format_tokens (1234 -> "1.2k", 12345 -> "12k"), so token usage is approximate. Edits and
// commits print "Applied edit to <path>" and "Commit <hash> <message>". Aider exits 0 even when
// the model call failed, so a run without any "Tokens:" line is a failure.
import type { TaskResult, TokenUsage } from "@errand/channel-sdk";
import type { EngineEvent, EngineExit, OutputParser } from "../engine.js";
import { exitProblem } from "../output/exit-problem.js";
import { createLineTail } from "../output/line-tail.js";
import { progressText } from "../output/progress-text.js";
import { readPullRequest } from "../output/pull-request.js";
import { toTaskResult } from "../output/task-result.js";
import { sumUsage } from "../output/token-usage.js";

const WHO = "aider";
const COUNT = String.raw`(\d+(?:\.\d+)?k?)`;
const TOKENS = new RegExp(
  String.raw`^Tokens: ${COUNT} sent(?:, ${COUNT} cache write)?(?:, ${COUNT} cache hit)?, ${COUNT} received\.`,
);
const COST = /Cost: \$(\d+(?:\.\d+)?) message, \$(\d+(?:\.\d+)?) session\./;
const APPLIED = /^Applied edit to (.+)$/;
const COMMIT = /^Commit ([0-9a-f]{7,40}) (.+)$/;
/** Most lines, and characters of one line, kept of the reply being printed. */
const MAX_REPLY_LINES = 2000;
const MAX_REPLY_LINE_CHARS = 10_000;

/** The parser of one Aider run. */
export function createAiderParser(): OutputParser {
  const output = createLineTail();
  const replies: TokenUsage[] = [];
  let current: string[] = [];
  let lastReply: string[] = [];
  let sessionCost: number | undefined;

  const read = (line: string): EngineEvent[] => {
    const events: EngineEvent[] = [];
    const tokens = TOKENS.exec(line);
    if (tokens !== null) {
      replies.push({
        inputTokens: count(tokens[1]),
        outputTokens: count(tokens[4]),
        cachedInputTokens: count(tokens[3]),
      });
      events.push({ kind: "usage", usage: sumUsage(replies) });
      lastReply = current;
      current = [];
    }
    const cost = COST.exec(line);
    if (cost !== null) {
      sessionCost = Number(cost[2]);
      events.push({ kind: "cost", usd: sessionCost });
    }
    if (tokens !== null || cost !== null) return events;
    const applied = APPLIED.exec(line);
    const commit = COMMIT.exec(line);
    if (applied?.[1] !== undefined) events.push({ kind: "progress", text: `edited ${applied[1]}`, detail: "tool" });
    else if (commit?.[2] !== undefined)
      events.push({
        kind: "progress",
        text: progressText(`committed ${commit[1]}: ${commit[2]}`) ?? "committed",
        detail: "status",
      });
    else if (current.length < MAX_REPLY_LINES) current.push(line.slice(0, MAX_REPLY_LINE_CHARS));
    return events;
  };

  return {
    line(stream, text) {
      output.push(text);
      return stream === "stdout" ? read(text) : [];
    },
    finish(exit: EngineExit): TaskResult {
      const problem = exitProblem(exit, WHO, output);
      const reply = lastReply.length > 0 ? lastReply : current;
      const { url, summary } = readPullRequest(reply.join("\n"));
      let failureReason: string | undefined = problem;
      if (failureReason === undefined && replies.length === 0) {
        const tail = output.text();
        failureReason = `aider exited without a model reply (no "Tokens:" line)${tail === "" ? "" : `; last output: ${tail}`}`;
      }
      return toTaskResult({
        failureReason,
        summary,
        pullRequestUrl: url,
        costUsd: sessionCost,
        tokenUsage: replies.length === 0 ? undefined : sumUsage(replies),
        durationMs: exit.durationMs,
      });
    },
  };
}

/** "235" -> 235, "2.1k" -> 2100, "12k" -> 12000; undefined (an absent group) -> 0. */
function count(text: string | undefined): number {
  if (text === undefined) return 0;
  return text.endsWith("k") ? Math.round(Number(text.slice(0, -1)) * 1000) : Number(text);
}
