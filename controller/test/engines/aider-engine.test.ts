import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createEngine } from "../../src/engines/create-engine.js";
import { engineConfig, FIXTURES, progressOf, runEngine } from "./helpers/run-engine.js";

const aider = (extra: Parameters<typeof engineConfig>[1] = {}) =>
  createEngine(engineConfig("aider", { command: [join(FIXTURES, "aider")], ...extra }));
const scenario = (name: string) => ({ env: { FAKE_CLI_SCENARIO: name } });

describe("aider engine", () => {
  test("runs aider --yes-always --no-pretty --message-file with the prompt file, nothing on stdin", async () => {
    const engine = aider({
      authMethod: "api_key",
      apiKeySecret: "anthropic",
      model: "sonnet",
      args: ["--no-auto-commits"],
    });
    expect(engine.apiKeyEnv).toBe("ANTHROPIC_API_KEY");
    const run = await runEngine(engine, { apiKey: "sk-ant-test" });
    expect(run.invocation.stdin).toBeUndefined();
    expect(run.record?.argv).toEqual([
      "--yes-always",
      "--no-pretty",
      "--message-file",
      run.files.prompt,
      "--model",
      "sonnet",
      "--no-auto-commits",
    ]);
    expect(run.record?.env.ANTHROPIC_API_KEY).toBe("sk-ant-test");
  });

  test("a successful run takes the session cost from the last Cost line and sums the rounded token counts", async () => {
    const run = await runEngine(aider());
    expect(run.result).toEqual({
      success: true,
      summary: "Added a test too. The change is ready for review.",
      pullRequestUrl: "https://github.com/acme/widgets/pull/9",
      failureReason: "",
      costUsd: 0.06,
      durationMs: expect.any(Number),
      tokenUsage: { inputTokens: 14100, outputTokens: 645, cachedInputTokens: 3000 },
    });
    expect(run.events.flatMap((e) => (e.kind === "cost" ? [e.usd] : []))).toEqual([0.02, 0.06]);
    expect(progressOf(run.events)).toEqual([
      "tool: edited src/parse.py",
      "status: committed 1a2b3c4: fix: accept empty input in the parser",
    ]);
  });

  test("a model without prices gives tokens and no cost", async () => {
    const run = await runEngine(aider(), scenario("no_cost"));
    expect(run.result).toMatchObject({
      success: true,
      costUsd: undefined,
      tokenUsage: { inputTokens: 950, outputTokens: 20, cachedInputTokens: 0 },
    });
  });

  test.each([
    [
      "no_reply",
      'aider exited without a model reply (no "Tokens:" line); last output: Main model: anthropic/claude-sonnet-4-5 with diff edit format, infinite output | Git repo: .git with 42 files | Repo-map: using 4096 tokens, auto refresh | litellm.AuthenticationError: AnthropicException - invalid x-api-key | The API provider is not able to authenticate you. Check your API key.',
    ],
    [
      "crash",
      "aider exited with code 1 (stderr: Traceback (most recent call last): | ModuleNotFoundError: No module named 'litellm')",
    ],
  ])("%s fails with a clear reason", async (name, reason) => {
    const run = await runEngine(aider(), scenario(name));
    expect(run.result.success).toBe(false);
    expect(run.result.failureReason).toBe(reason);
  });
});
