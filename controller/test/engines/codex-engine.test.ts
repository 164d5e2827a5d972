import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createEngine } from "../../src/engines/create-engine.js";
import { engineConfig, FIXTURES, progressOf, runEngine } from "./helpers/run-engine.js";

const codex = (extra: Parameters<typeof engineConfig>[1] = {}) =>
  createEngine(engineConfig("codex", { command: [join(FIXTURES, "codex")], ...extra }));
const scenario = (name: string) => ({ env: { FAKE_CLI_SCENARIO: name } });

describe("codex engine", () => {
  test("runs codex exec --json with the prompt on stdin (`-`) and the key in CODEX_API_KEY", async () => {
    const engine = codex({
      authMethod: "api_key",
      apiKeySecret: "openai",
      model: "gpt-5-codex",
      args: ["--ephemeral"],
    });
    expect(engine.apiKeyEnv).toBe("CODEX_API_KEY");
    const run = await runEngine(engine, { apiKey: "sk-test", prompt: "Fix it." });
    expect(run.record?.argv).toEqual([
      "exec",
      "--json",
      "--sandbox",
      "danger-full-access",
      "--skip-git-repo-check",
      "--model",
      "gpt-5-codex",
      "--ephemeral",
      "-",
    ]);
    expect(run.record?.stdin).toBe("Fix it.");
    expect(run.record?.env.CODEX_API_KEY).toBe("sk-test");
  });

  test("a successful run gives the last agent message, its pull request and the turn's tokens; a reconnect is only progress", async () => {
    const run = await runEngine(codex());
    expect(run.result).toEqual({
      success: true,
      summary: "Fixed the parser and opened a pull request.",
      pullRequestUrl: "https://github.com/acme/widgets/pull/7",
      failureReason: "",
      costUsd: undefined,
      durationMs: expect.any(Number),
      tokenUsage: { inputTokens: 24763, outputTokens: 122, cachedInputTokens: 24448 },
    });
    expect(progressOf(run.events)).toEqual([
      "status: codex started",
      "tool: $ bash -lc 'git clone https://github.com/acme/widgets .'",
      "tool: edited src/parse.ts, test/parse.test.ts",
      "status: codex: Reconnecting... 1/5 (stream disconnected before completion)",
      "message: Fixed the parser and opened a pull request. PR: https://github.com/acme/widgets/pull/7",
    ]);
    expect(run.events.some((e) => e.kind === "cost")).toBe(false);
  });

  test("tokens are summed over every turn.completed", async () => {
    const run = await runEngine(codex(), scenario("two_turns"));
    expect(run.result.tokenUsage).toEqual({ inputTokens: 25763, outputTokens: 222, cachedInputTokens: 24848 });
    expect(run.events.filter((e) => e.kind === "usage")).toHaveLength(2);
  });

  test("invalid lines are read as nothing; a later turn.completed decides, even after a failed turn", async () => {
    const run = await runEngine(codex(), scenario("malformed_then_success"));
    expect(run.result).toMatchObject({
      success: true,
      pullRequestUrl: "https://github.com/acme/widgets/pull/7",
      tokenUsage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
    });
  });

  test.each([
    ["turn_failed", "codex turn failed: unexpected status 401 Unauthorized: Incorrect API key provided"],
    [
      "error_only",
      "codex exited with code 1 (stderr: Reading prompt from stdin...) without completing a turn (last error: stream disconnected before completion: 503 Service Unavailable)",
    ],
    ["no_turn", "codex exited without completing a turn"],
    [
      "completed_exit_nonzero",
      "codex completed its turn, but codex exited with code 1 (stderr: Reading prompt from stdin...)",
    ],
    ["malformed", "codex exited without completing a turn; 1 output line(s) longer than 4 MiB were not read"],
  ])("%s fails with a clear reason", async (name, reason) => {
    const run = await runEngine(codex(), scenario(name));
    expect(run.result.success).toBe(false);
    expect(run.result.failureReason).toBe(reason);
  });
});
