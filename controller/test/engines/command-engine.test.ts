import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createEngine } from "../../src/engines/create-engine.js";
import { EngineConfigError } from "../../src/engines/engine-config-error.js";
import { engineConfig, FIXTURES, progressOf, runEngine, sampleTicket } from "./helpers/run-engine.js";

const AGENT = join(FIXTURES, "command-agent.mjs");
const command = (extra: Parameters<typeof engineConfig>[1] = {}) =>
  createEngine(engineConfig("command", { command: [AGENT], ...extra }));
const withResult = (result: unknown, env: Record<string, string> = {}) => ({
  env: { FAKE_RESULT: typeof result === "string" ? result : JSON.stringify(result), ...env },
});

describe("command engine: the contract", () => {
  test("gives the ERRAND_* files, the key in ERRAND_API_KEY, the prompt on stdin, and its own arguments and variables", async () => {
    const engine = createEngine(
      engineConfig("command", {
        command: ["node", AGENT, "--flag"],
        args: ["extra"],
        authMethod: "api_key",
        apiKeySecret: "agent_key",
        env: { AGENT_MODE: "fast", ERRAND_RUN_ID: "mine" },
      }),
    );
    expect(engine.apiKeyEnv).toBe("ERRAND_API_KEY");
    const run = await runEngine(engine, {
      apiKey: "key-123",
      prompt: "Do the thing.",
      ...withResult({ success: true }),
    });
    expect(run.invocation).toMatchObject({ command: "node", args: [AGENT, "--flag", "extra"], stdin: "Do the thing." });
    expect(run.invocation.env.AGENT_MODE).toBe("fast");
    expect(run.record?.argv).toEqual(["--flag", "extra"]);
    expect(run.record?.stdin).toBe("Do the thing.");
    expect(run.record?.cwd).toBe(run.workspace);
    expect(run.record?.env).toMatchObject({
      ERRAND_RUN_ID: expect.stringMatching(/^run_\d+$/),
      ERRAND_API_KEY: "key-123",
      ERRAND_PROMPT_FILE: run.files.prompt,
      ERRAND_TICKET_FILE: run.files.ticket,
      ERRAND_RESULT_FILE: run.files.result,
      ERRAND_WORKSPACE: run.workspace,
    });
    expect(readFileSync(run.files.prompt, "utf8")).toBe("Do the thing.");
  });

  test("the ticket file holds the ticket with the spec's snake_case names", async () => {
    const run = await runEngine(command(), { ticket: sampleTicket({ id: "77" }), ...withResult({ success: true }) });
    expect(JSON.parse(readFileSync(run.files.ticket, "utf8"))).toEqual({
      id: "77",
      title: "Parser crashes on empty input",
      description: 'Calling parse("") throws.\nExpected: an empty list.',
      ticket_type: "bug_fix",
      repo_url: "https://github.com/acme/widgets",
      external_url: "https://tracker.example/acme/1234",
      labels: ["bug", "errand"],
      source: "generic",
      raw_event: { action: "opened" },
    });
  });

  test("prompt_via file leaves stdin empty and no key is passed with auth none", async () => {
    const engine = command({ promptVia: "file" });
    expect(engine.apiKeyEnv).toBeUndefined();
    const run = await runEngine(engine, {
      apiKey: "key-123",
      prompt: "In the file.",
      ...withResult({ success: true }),
    });
    expect(run.invocation.stdin).toBeUndefined();
    expect(run.record?.stdin).toBe("");
    expect(run.record?.env.ERRAND_API_KEY).toBeUndefined();
  });

  test("a full result file becomes the run's result", async () => {
    const run = await runEngine(
      command(),
      withResult({
        success: true,
        summary: "Fixed it.",
        pull_request_url: "https://github.com/acme/widgets/pull/5",
        failure_reason: "",
        cost_usd: 0.31,
        duration_ms: 1234,
        token_usage: { input_tokens: 1000, output_tokens: 200, cached_input_tokens: 600 },
      }),
    );
    expect(run.result).toEqual({
      success: true,
      summary: "Fixed it.",
      pullRequestUrl: "https://github.com/acme/widgets/pull/5",
      failureReason: "",
      costUsd: 0.31,
      durationMs: 1234,
      tokenUsage: { inputTokens: 1000, outputTokens: 200, cachedInputTokens: 600 },
    });
  });

  test("progress lines become events; malformed ones and other lines are only logged; live cost and tokens fill a result without them", async () => {
    const stdout = [
      "::progress:: cloning the repository",
      "::cost:: 0.42",
      "::usage:: 100 20 5",
      "::cost:: abc",
      "::cost:: -1",
      "plain output",
      "::usage:: 1",
      "::progress::   ",
      "::progress::running tests",
    ].join("\n");
    const run = await runEngine(command(), withResult({ success: true }, { FAKE_STDOUT: stdout }));
    expect(run.events).toEqual([
      { kind: "progress", text: "cloning the repository", detail: "status" },
      { kind: "cost", usd: 0.42 },
      { kind: "usage", usage: { inputTokens: 100, outputTokens: 20, cachedInputTokens: 5 } },
      { kind: "progress", text: "running tests", detail: "status" },
    ]);
    expect(run.result).toMatchObject({
      success: true,
      costUsd: 0.42,
      tokenUsage: { inputTokens: 100, outputTokens: 20, cachedInputTokens: 5 },
    });
    expect(progressOf(run.events)).toHaveLength(2);
  });
});

describe("command engine: failures", () => {
  test.each([
    [{ success: "yes" }, "result file: success must be true or false"],
    [{}, "result file: success is missing (true or false)"],
    [
      { success: true, cost_usd: -1, pr_url: "x" },
      'result file: cost_usd must be at least 0; unknown key "pr_url"; the keys are success, summary, pull_request_url, failure_reason, cost_usd, duration_ms, token_usage',
    ],
    [
      { success: true, summary: 3, pull_request_url: "ftp://x" },
      "result file: summary must be a string; pull_request_url must be an http(s) URL or empty",
    ],
    [
      { success: true, token_usage: { input_tokens: 1.5, cached: 1 } },
      'result file: token_usage.input_tokens must be a whole number of at least 0; token_usage.output_tokens is missing (a whole number of at least 0); token_usage: unknown key "cached"; the keys are input_tokens, output_tokens, cached_input_tokens',
    ],
    [
      { success: true, token_usage: 5 },
      "result file: token_usage must be an object {input_tokens, output_tokens, cached_input_tokens}",
    ],
    ["[]", "result file: it must hold a JSON object"],
    ["", "result file: it is empty; write a JSON object"],
  ])("result %j is refused: %s", async (result, reason) => {
    const run = await runEngine(command(), withResult(result));
    expect(run.result.success).toBe(false);
    expect(run.result.failureReason).toBe(reason);
  });

  test("a result file that is not JSON says so", async () => {
    const run = await runEngine(command(), withResult("success: true"));
    expect(run.result.failureReason).toMatch(/^result file: it is not valid JSON \(.+\)$/);
  });

  test("a result file over 1 MiB is refused, naming the limit", async () => {
    const run = await runEngine(command(), { env: { FAKE_RESULT_BYTES: String(1024 * 1024 + 1) } });
    expect(run.result.failureReason).toBe("result file: it is larger than the limit of 1 MiB (1048576 bytes)");
  });

  test("a result file of exactly 1 MiB is read", async () => {
    const run = await runEngine(command(), { env: { FAKE_RESULT_BYTES: String(1024 * 1024) } });
    expect(run.result.success).toBe(true);
  });

  test.each([
    [{}, "the engine exited 0 without writing $ERRAND_RESULT_FILE"],
    [
      { FAKE_EXIT: "3", FAKE_STDERR: "fatal: could not read Username\nboom" },
      "the engine exited with code 3 (stderr: fatal: could not read Username | boom), without writing $ERRAND_RESULT_FILE",
    ],
    [{ FAKE_SIGNAL: "SIGKILL" }, "the engine was ended by SIGKILL, without writing $ERRAND_RESULT_FILE"],
  ])("no result file (%j) fails: %s", async (env, reason) => {
    const run = await runEngine(command(), { env });
    expect(run.result.success).toBe(false);
    expect(run.result.failureReason).toBe(reason);
  });

  test("a result that says success fails when the process did not exit 0", async () => {
    const run = await runEngine(command(), withResult({ success: true, summary: "done" }, { FAKE_EXIT: "1" }));
    expect(run.result).toMatchObject({
      success: false,
      summary: "done",
      failureReason: "the result file says success, but the engine exited with code 1",
    });
  });

  test("a failure result keeps its reason, adds the exit code, and names a missing reason", async () => {
    const plain = await runEngine(command(), withResult({ success: false, failure_reason: "tests fail on main" }));
    expect(plain.result.failureReason).toBe("tests fail on main");
    const exited = await runEngine(
      command(),
      withResult({ success: false, failure_reason: "tests fail on main" }, { FAKE_EXIT: "2" }),
    );
    expect(exited.result.failureReason).toBe("tests fail on main (the engine exited with code 2)");
    const silent = await runEngine(command(), withResult({ success: false }));
    expect(silent.result.failureReason).toBe("the engine reported failure without a failure_reason");
  });

  test("an invalid result file and a bad exit are both named", async () => {
    const run = await runEngine(command(), withResult({ success: 1 }, { FAKE_EXIT: "4" }));
    expect(run.result.failureReason).toBe(
      "result file: success must be true or false (and the engine exited with code 4)",
    );
  });

  test("a command engine without a command is a configuration error with a fix", () => {
    let error: unknown;
    try {
      createEngine(engineConfig("command", { name: "mine" }));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EngineConfigError);
    expect(error).toMatchObject({
      code: "ERR_INVALID_CONFIG",
      message: "engines.mine: a command engine needs a command to run",
      hint: 'set engines.mine.command, e.g. ["./agent.sh"]',
    });
  });
});
