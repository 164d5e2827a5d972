import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createEngine } from "../../src/engines/create-engine.js";
import { engineConfig, FIXTURES, progressOf, runEngine } from "./helpers/run-engine.js";

const opencode = (extra: Parameters<typeof engineConfig>[1] = {}) =>
  createEngine(engineConfig("opencode", { command: [join(FIXTURES, "opencode")], ...extra }));
const scenario = (name: string) => ({ env: { FAKE_CLI_SCENARIO: name } });

describe("opencode engine", () => {
  test("runs opencode run --format json with the prompt on stdin and the key in the model provider's variable", async () => {
    const engine = opencode({ authMethod: "api_key", apiKeySecret: "openai", model: "openai/gpt-5" });
    expect(engine.apiKeyEnv).toBe("OPENAI_API_KEY");
    const run = await runEngine(engine, { apiKey: "sk-test", prompt: "Fix it." });
    expect(run.record?.argv).toEqual(["run", "--format", "json", "--model", "openai/gpt-5"]);
    expect(run.record?.stdin).toBe("Fix it.");
    expect(run.record?.env.OPENAI_API_KEY).toBe("sk-test");
  });

  test("a successful run sums cost and tokens over its steps and reports them as it goes", async () => {
    const run = await runEngine(opencode());
    expect(run.result).toEqual({
      success: true,
      summary: "Fixed the parser.",
      pullRequestUrl: "https://github.com/acme/widgets/pull/11",
      failureReason: "",
      costUsd: 0.03,
      durationMs: expect.any(Number),
      tokenUsage: { inputTokens: 5050, outputTokens: 420, cachedInputTokens: 2000 },
    });
    expect(run.events.flatMap((e) => (e.kind === "cost" ? [e.usd] : []))).toEqual([0.01, 0.03]);
    expect(progressOf(run.events)).toEqual([
      "message: Cloning the repository first.",
      "tool: bash: git clone https://github.com/acme/widgets .",
      "tool: edit src/parse.ts failed: oldString not found",
      "message: Fixed the parser. PR: https://github.com/acme/widgets/pull/11",
    ]);
  });

  test.each([
    ["error", "opencode reported an error: Invalid API key"],
    ["rejected", "opencode exited with code 1 (permissions it refused: external_directory)"],
    ["no_steps", "opencode exited without finishing a step (no step_finish event)"],
    [
      "malformed",
      "opencode exited without finishing a step (no step_finish event); 1 output line(s) longer than 4 MiB were not read",
    ],
  ])("%s fails with a clear reason", async (name, reason) => {
    const run = await runEngine(opencode(), scenario(name));
    expect(run.result.success).toBe(false);
    expect(run.result.failureReason).toBe(reason);
  });
});
