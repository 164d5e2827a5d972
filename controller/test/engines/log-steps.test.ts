import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { formatStep, lineSteps, logSteps } from "../../src/engines/log-steps.js";
import { FIXTURES } from "./helpers/run-engine.js";

// The fake CLIs replay each engine's documented JSON Lines; a run log holds them as `[stdout] <line>`.
async function logOf(cli: string, args: string[], scenario: string): Promise<string> {
  const run = await execa(join(FIXTURES, cli), args, {
    input: "Fix it.",
    env: { FAKE_CLI_SCENARIO: scenario },
    reject: false,
  });
  return `${run.stdout
    .split("\n")
    .map((line) => `[stdout] ${line}`)
    .join("\n")}\n[errand] exited with code ${run.exitCode}\n`;
}
const rendered = (log: string) => logSteps(log).map((s) => formatStep(s));

describe("a run log as readable steps", () => {
  it("Claude Code's stream-json: messages, tool calls, tool results and the result", async () => {
    const log = await logOf("claude", ["-p", "--output-format", "stream-json", "--verbose"], "success");
    expect(rendered(log)).toEqual([
      "status: claude started (model claude-sonnet-4-5)",
      "assistant: I'll start by cloning the repository.",
      "tool Bash: git clone https://github.com/acme/widgets .",
      "tool result: ok (1 line)",
      "tool Edit src/parse.ts",
      "tool result: ok (1 line)",
      "assistant: Fixed the crash on empty input and added a test. PR: https://github.com/acme/widgets/pull/42",
      "result: success, $0.12, 4 turns, 31s",
      "[errand] exited with code 0",
    ]);
    // What it replaces: lines of raw JSON, the result line alone several hundred characters.
    expect(Math.max(...log.split("\n").map((l) => l.length))).toBeGreaterThan(400);
  });

  it("Codex's exec --json: reasoning, commands with their exit codes, file changes, errors and turns", async () => {
    const log = await logOf("codex", ["exec", "--json", "-"], "success");
    expect(rendered(log)).toEqual([
      "thinking: **Looking for the parser**",
      "tool shell: bash -lc 'git clone https://github.com/acme/widgets .'",
      "tool result: exit 0 (1 line)",
      "files: update src/parse.ts, add test/parse.test.ts",
      "error: Reconnecting... 1/5 (stream disconnected before completion)",
      "assistant: Fixed the parser and opened a pull request. PR: https://github.com/acme/widgets/pull/7",
      "turn completed: 24763 tokens in, 122 out",
      "[errand] exited with code 0",
    ]);
    expect(rendered(await logOf("codex", ["exec", "--json", "-"], "turn_failed"))).toContain(
      "turn failed: unexpected status 401 Unauthorized: Incorrect API key provided",
    );
  });

  it("opencode's run --format json: text, tools with their outcome, steps with cost, errors", async () => {
    const log = await logOf("opencode", ["run", "--format", "json", "Fix it."], "success");
    expect(rendered(log)).toEqual([
      "assistant: Cloning the repository first.",
      "tool bash: git clone https://github.com/acme/widgets .",
      "tool result: ok (0 lines)",
      "step: tool-calls, $0.01, 1000 tokens in, 100 out",
      "tool edit src/parse.ts",
      "tool result: error: oldString not found",
      "assistant: Fixed the parser. PR: https://github.com/acme/widgets/pull/11",
      "step: stop, $0.02, 2000 tokens in, 300 out",
      "done: idle",
      "[errand] exited with code 0",
    ]);
    expect(rendered(await logOf("opencode", ["run", "--format", "json", "Fix it."], "error"))).toContain(
      "error: ProviderAuthError: Invalid API key",
    );
  });

  it("keeps text lines as they are and shortens JSON it cannot read, whatever a malformed output holds", async () => {
    const log = await logOf("codex", ["exec", "--json", "-"], "malformed");
    const steps = rendered(log);
    expect(steps[0]).toBe("[stdout] 2025-10-01T09:18:12Z ERROR codex_core::codex: failed to load skill");
    expect(steps[1]).toBe("[stdout] {…} (32 characters of JSON, not valid JSON)");
    expect(steps[2]).toBe("[stdout] null");
    // The 5 MiB line of text is cut; --raw still shows it.
    expect(steps[3]).toMatch(/^\[stdout\] x{991}… \(\d{7} more characters\)$/);
    expect(steps.every((s) => s.length < 1100)).toBe(true);
    expect(rendered('[stdout] {"type":"x","a":1 [line truncated: 9000 bytes]')).toEqual([
      "[stdout] {…} (17 characters of JSON, cut at the log's line limit)",
    ]);
    expect(rendered('[stderr] {"type":"result"}\n::progress:: cloning\n')).toEqual([
      '[stderr] {"type":"result"}',
      "::progress:: cloning",
    ]);
  });

  it("cuts long texts to one short line", () => {
    const text = `${"word ".repeat(100)}\n\nmore`;
    const [s] = lineSteps(
      `[stdout] ${JSON.stringify({ type: "assistant", message: { content: [{ type: "text", text }] } })}`,
    );
    const shown = formatStep(s!);
    expect(shown).toMatch(/^assistant: word word .*…$/);
    expect(shown.length).toBeLessThanOrEqual("assistant: ".length + 201);
  });
});
