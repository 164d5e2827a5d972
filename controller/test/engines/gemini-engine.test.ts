import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createEngine } from "../../src/engines/create-engine.js";
import { engineConfig, FIXTURES, runEngine } from "./helpers/run-engine.js";

const gemini = (extra: Parameters<typeof engineConfig>[1] = {}) =>
  createEngine(engineConfig("gemini", { command: [join(FIXTURES, "gemini")], ...extra }));
const scenario = (name: string) => ({ env: { FAKE_CLI_SCENARIO: name } });

describe("gemini engine", () => {
  test("runs gemini --output-format json --approval-mode yolo with the prompt on stdin and the key in GEMINI_API_KEY", async () => {
    const engine = gemini({ authMethod: "api_key", apiKeySecret: "google", model: "gemini-2.5-pro" });
    expect(engine.apiKeyEnv).toBe("GEMINI_API_KEY");
    const run = await runEngine(engine, { apiKey: "AIza-test", prompt: "Fix it." });
    expect(run.record?.argv).toEqual([
      "--output-format",
      "json",
      "--approval-mode",
      "yolo",
      "--model",
      "gemini-2.5-pro",
    ]);
    expect(run.record?.stdin).toBe("Fix it.");
    expect(run.record?.env.GEMINI_API_KEY).toBe("AIza-test");
  });

  test("a successful run reads the pretty-printed object: response, merge request and tokens of every model", async () => {
    const run = await runEngine(gemini());
    expect(run.result).toEqual({
      success: true,
      summary: "Fixed the bug.",
      pullRequestUrl: "https://gitlab.com/acme/widgets/-/merge_requests/5",
      failureReason: "",
      costUsd: undefined,
      durationMs: expect.any(Number),
      tokenUsage: { inputTokens: 12000, outputTokens: 1100, cachedInputTokens: 4000 },
    });
    expect(run.events).toEqual([]);
  });

  test("lines before the JSON object do not hide it; a bare pull request URL in the response is found", async () => {
    const run = await runEngine(gemini(), scenario("noise_before_json"));
    expect(run.result).toMatchObject({ success: true, pullRequestUrl: "https://github.com/acme/widgets/pull/3" });
  });

  test.each([
    [
      "auth",
      "gemini could not authenticate (exit 41); check the API key (auth.api_key_secret, GEMINI_API_KEY): GEMINI_API_KEY environment variable not found.",
    ],
    ["input", "gemini refused its input (exit 42): Invalid prompt."],
    ["config", "gemini's configuration is invalid (exit 52): Invalid settings.json."],
    ["turn_limit", "gemini reached its session turn limit (exit 53): Reached max session turns for this session."],
    [
      "api_error",
      "gemini reported an error (Error): [API Error: 500 Internal error encountered.]; gemini exited with code 1",
    ],
    ["error_in_output", "gemini reported an error (ApiError): quota exceeded"],
    ["crash", "gemini exited with code 1 (stderr: file:///gemini.js:1 SyntaxError: Unexpected token)"],
    ["malformed", "gemini exited 0 without a JSON result on stdout"],
    ["no_response", "gemini's JSON result has no response"],
  ])("%s fails with a clear reason", async (name, reason) => {
    const run = await runEngine(gemini(), scenario(name));
    expect(run.result.success).toBe(false);
    expect(run.result.failureReason).toBe(reason);
  });
});
