import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { createEngine } from "../../src/engines/create-engine.js";
import type { EngineEvent } from "../../src/engines/engine.js";
import { engineConfig, FIXTURES, progressOf, runEngine } from "./helpers/run-engine.js";

const claude = (extra: Parameters<typeof engineConfig>[1] = {}) =>
  createEngine(engineConfig("claude_code", { command: [join(FIXTURES, "claude")], ...extra }));
const scenario = (name: string) => ({ env: { FAKE_CLI_SCENARIO: name } });

describe("claude_code engine", () => {
  test("runs claude -p with stream-json, the prompt on stdin and the key in ANTHROPIC_API_KEY", async () => {
    const engine = claude({
      authMethod: "api_key",
      apiKeySecret: "anthropic",
      model: "opus",
      args: ["--max-turns", "30"],
    });
    expect(engine.apiKeyEnv).toBe("ANTHROPIC_API_KEY");
    const run = await runEngine(engine, { apiKey: "sk-ant-test", prompt: "Fix it, please." });
    expect(run.record?.argv).toEqual([
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      "--permission-mode",
      "bypassPermissions",
      "--model",
      "opus",
      "--max-turns",
      "30",
    ]);
    expect(run.record?.stdin).toBe("Fix it, please.");
    expect(run.record?.cwd).toBe(run.workspace);
    expect(run.record?.env).toMatchObject({
      ANTHROPIC_API_KEY: "sk-ant-test",
      ERRAND_PROMPT_FILE: run.files.prompt,
      ERRAND_TICKET_FILE: run.files.ticket,
      ERRAND_RESULT_FILE: run.files.result,
      ERRAND_WORKSPACE: run.workspace,
    });
  });

  test("a successful run gives its summary, pull request, cost and tokens, and reports its steps", async () => {
    const run = await runEngine(claude());
    expect(run.result).toEqual({
      success: true,
      summary: "Fixed the crash on empty input and added a test.",
      pullRequestUrl: "https://github.com/acme/widgets/pull/42",
      failureReason: "",
      costUsd: 0.1234,
      durationMs: expect.any(Number),
      tokenUsage: { inputTokens: 6500, outputTokens: 800, cachedInputTokens: 5000 },
    });
    expect(progressOf(run.events)).toEqual([
      "status: claude started (model claude-sonnet-4-5)",
      "message: I'll start by cloning the repository.",
      "tool: Bash: git clone https://github.com/acme/widgets .",
      "tool: Edit src/parse.ts",
      "message: Fixed the crash on empty input and added a test. PR: https://github.com/acme/widgets/pull/42",
    ]);
    // Two messages share msg_1's usage: it counts once (1110 input each for msg_1, msg_2, msg_3).
    const usage = run.events.flatMap((e) => (e.kind === "usage" ? [e.usage.inputTokens] : []));
    expect(usage).toEqual([1110, 1110, 2220, 3330, 6500]);
    expect(run.events.filter((e) => e.kind === "cost")).toEqual([{ kind: "cost", usd: 0.1234, final: true }]);
  });

  test("is found on PATH by its usual name when no command is set", async () => {
    const engine = createEngine(engineConfig("claude_code"));
    const run = await runEngine(engine, { env: { PATH: `${FIXTURES}:${process.env.PATH}` } });
    expect(run.invocation.command).toBe("claude");
    expect(run.result.success).toBe(true);
  });

  test("auth none passes no key", async () => {
    const engine = claude();
    expect(engine.apiKeyEnv).toBeUndefined();
    const run = await runEngine(engine, { apiKey: "sk-ant-test" });
    expect(run.record?.env.ANTHROPIC_API_KEY).toBeUndefined();
  });

  test.each([
    ["max_turns", "claude stopped at its turn limit (error_max_turns after 10 turns)"],
    ["execution_error", "claude failed during execution (error_during_execution): API Error: 529 Overloaded"],
    ["is_error", "claude reported an error: Invalid API key · Please run /login"],
    ["no_result", "claude exited without a result message"],
    [
      "crash",
      "claude exited with code 1 (stderr: TypeError: Cannot read properties of undefined (reading 'content') | at file:///cli.js:1:2) without a result message",
    ],
    [
      "root",
      'claude exited with code 1 (stderr: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons) without a result message; claude refuses bypassPermissions as root: run the controller as an ordinary user, or set IS_SANDBOX: "1" in engines.<name>.env when the engine runs in a disposable container',
    ],
    ["success_exit_nonzero", "claude reported success, but claude exited with code 2"],
    ["malformed", "claude's result message has no subtype"],
    ["huge_result", "claude exited without a result message; 1 output line(s) longer than 4 MiB were not read"],
  ])("%s fails with a clear reason", async (name, reason) => {
    const run = await runEngine(claude(), scenario(name));
    expect(run.result.success).toBe(false);
    expect(run.result.failureReason).toBe(reason);
  });

  test("a run that stopped at --max-budget-usd fails for the cost limit", async () => {
    const run = await runEngine(
      createEngine(engineConfig("claude_code", { command: [join(FIXTURES, "claude")] }), { maxCostUsd: 0.5 }),
      scenario("budget"),
    );
    expect(run.result).toMatchObject({ success: false, costUsd: 0.52 });
    expect(run.result.failureReason).toBe(
      "cost limit: claude stopped itself at its budget of $0.50 (guardrails.max_cost_per_job) after spending $0.52 (error_max_budget_usd)",
    );
  });

  test("the result's cost is final: the agent has finished when it comes", async () => {
    const run = await runEngine(claude(), scenario("expensive"));
    expect(run.result).toMatchObject({ success: true, costUsd: 4.5 });
    expect(run.events.filter((e) => e.kind === "cost")).toEqual([{ kind: "cost", usd: 4.5, final: true }]);
  });

  test("a failed run keeps the cost and tokens it reported", async () => {
    const run = await runEngine(claude(), scenario("execution_error"));
    expect(run.result.costUsd).toBe(0.002);
    expect(run.result.tokenUsage).toEqual({ inputTokens: 6500, outputTokens: 800, cachedInputTokens: 5000 });
  });

  test("invalid lines and fields are read as nothing, and the result still counts", async () => {
    const run = await runEngine(claude(), scenario("malformed_then_success"));
    expect(run.result).toMatchObject({
      success: true,
      pullRequestUrl: "https://github.com/acme/widgets/pull/42",
      costUsd: undefined,
    });
    expect(run.result.tokenUsage).toEqual({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });
  });
});

describe("claude_code sessions", () => {
  const sessionsOf = (events: EngineEvent[]) => events.flatMap((e) => (e.kind === "session" ? [e.id] : []));
  /** Claude Code with its sessions in a folder of the test's own (CLAUDE_CONFIG_DIR). */
  const withSessions = () => {
    const dir = tempDir("errand-claude-config-");
    return { dir, engine: claude({ env: { CLAUDE_CONFIG_DIR: dir } }) };
  };

  test("reports the session id once; a follow-up in another workspace resumes it with --resume", async () => {
    const { dir, engine } = withSessions();
    const first = await runEngine(engine);
    const [session] = sessionsOf(first.events);
    expect(sessionsOf(first.events)).toEqual([session]);
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.record?.argv).not.toContain("--resume");

    const next = await runEngine(engine, { resumeSessionId: session, resumeWorkspace: first.workspace });
    expect(next.workspace).not.toBe(first.workspace);
    expect(next.record?.argv.slice(4, 6)).toEqual(["--resume", session]);
    expect(next.result.success).toBe(true);
    expect(sessionsOf(next.events)).toEqual([session]);
    // The transcript was carried to the folder Claude Code looks in for the new working directory.
    const folder = join(dir, "projects", next.workspace.replace(/[^A-Za-z0-9]/g, "-"));
    expect(readdirSync(folder)).toEqual([`${session}.jsonl`]);
  });

  test("a session whose transcript is not found is not resumed: the run starts a fresh one", async () => {
    const { engine } = withSessions();
    const first = await runEngine(engine);
    const run = await runEngine(engine, { resumeSessionId: "0000-not-filed", resumeWorkspace: first.workspace });
    expect(run.record?.argv).not.toContain("--resume");
    expect(run.result.success).toBe(true);
    expect(sessionsOf(run.events)).not.toEqual(["0000-not-filed"]);
  });

  test("an option-like session id is not passed on", async () => {
    const { engine } = withSessions();
    const first = await runEngine(engine);
    const run = await runEngine(engine, { resumeSessionId: "--help", resumeWorkspace: first.workspace });
    expect(run.record?.argv).not.toContain("--resume");
    expect(run.result.success).toBe(true);
  });

  test("the fake refuses to resume a session it did not file under its working directory, as the CLI does", async () => {
    const { dir } = withSessions();
    const run = await runEngine(claude({ env: { CLAUDE_CONFIG_DIR: dir }, args: ["--resume", "0000-not-filed"] }));
    expect(run.result.success).toBe(false);
    expect(run.result.failureReason).toContain("No conversation found with session ID: 0000-not-filed");
  });
});
