import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { createEngine } from "../../src/engines/create-engine.js";
import { ENGINE_KINDS, type EngineExit } from "../../src/engines/engine.js";
import { engineConfig } from "./helpers/run-engine.js";

/** Event and item types of every CLI, so random payloads reach the code that reads them. */
const TYPES = [
  "system",
  "assistant",
  "user",
  "result",
  "thread.started",
  "turn.completed",
  "turn.failed",
  "item.started",
  "item.completed",
  "error",
  "step_start",
  "step_finish",
  "text",
  "tool_use",
  "done",
];
const ITEM_TYPES = [
  "agent_message",
  "command_execution",
  "file_change",
  "mcp_tool_call",
  "web_search",
  "error",
  "text",
  "tool_use",
];

const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.double(), fc.integer({ min: -5, max: 5 }));
const event = fc.record(
  {
    type: fc.constantFrom(...TYPES),
    subtype: fc.oneof(fc.constantFrom("init", "success", "error_max_turns"), anyJson),
    message: fc.oneof(
      anyJson,
      fc.record({
        id: anyJson,
        content: fc.array(
          fc.record({ type: fc.constantFrom(...ITEM_TYPES), text: anyJson, name: anyJson, input: anyJson }),
          { maxLength: 3 },
        ),
        usage: anyJson,
      }),
    ),
    item: fc.oneof(
      anyJson,
      fc.record({
        type: fc.constantFrom(...ITEM_TYPES),
        text: anyJson,
        command: anyJson,
        changes: anyJson,
        status: anyJson,
      }),
    ),
    part: fc.oneof(
      anyJson,
      fc.record({ text: anyJson, tool: anyJson, state: anyJson, cost: anyJson, tokens: anyJson }),
    ),
    usage: anyJson,
    error: anyJson,
    result: anyJson,
    total_cost_usd: anyJson,
    is_error: anyJson,
    errors: anyJson,
  },
  { requiredKeys: ["type"] },
);
const line = fc.oneof(
  event.map((e) => JSON.stringify(e)),
  anyJson.map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  event.map((e) => JSON.stringify(e).slice(0, 40)),
  fc.constantFrom(
    "::progress:: x",
    "::cost:: 1.5",
    "::usage:: 1 2 3",
    "Tokens: 1.2k sent, 3 received.",
    "Cost: $0.01 message, $0.02 session.",
    "PR: https://github.com/a/b/pull/1",
    "{",
    "}",
  ),
);
const exit: fc.Arbitrary<EngineExit> = fc.record({
  exitCode: fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }),
  signal: fc.option(fc.constantFrom("SIGTERM", "SIGKILL"), { nil: undefined }),
  resultFile: fc.option(
    fc.oneof(
      fc.string(),
      anyJson.map((v) => JSON.stringify(v)),
    ),
    { nil: undefined },
  ),
  durationMs: fc.nat(),
});

describe.each(ENGINE_KINDS.map((kind) => [kind]))("%s parser", (kind) => {
  const engine = createEngine(engineConfig(kind, { command: kind === "command" ? ["./agent.sh"] : undefined }));

  test("never throws, and always ends with a result whose failure reason is set exactly when it failed", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom("stdout" as const, "stderr" as const), line), { maxLength: 30 }),
        exit,
        (lines, end) => {
          const parser = engine.parser();
          for (const [stream, text] of lines) {
            for (const e of parser.line(stream, text)) {
              if (e.kind === "cost") expect(Number.isFinite(e.usd) && e.usd >= 0).toBe(true);
            }
          }
          const result = parser.finish(end);
          expect(typeof result.success).toBe("boolean");
          expect(result.failureReason === "").toBe(result.success);
          expect(typeof result.summary).toBe("string");
          expect(typeof result.pullRequestUrl).toBe("string");
        },
      ),
      { numRuns: 300 },
    );
  });
});
