import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ControllerError } from "../../src/errors.js";
import { fixtureEngine } from "./helpers/fixture-engine.js";
import { fixture, localBackend, recordingHooks, specFor, tempDir } from "./helpers/local-setup.js";

const RESULT = JSON.stringify({
  success: true,
  summary: "Fixed it",
  pull_request_url: "https://codehost.example/acme/web/pull/7",
  cost_usd: 0.42,
});

describe("local backend: starting a run", () => {
  it("runs the engine in a fresh workspace and reads its result file", async () => {
    const { backend, config } = localBackend();
    const { engine, record } = fixtureEngine({
      args: [fixture("write-result.mjs"), "hello", "cost 0.25"],
      env: { FIXTURE_RESULT: RESULT },
    });
    const hooks = recordingHooks();
    const spec = specFor(engine);
    const handle = await backend.start(spec, hooks);
    const { result, stoppedFor } = await handle.done;

    expect(stoppedFor).toBeUndefined();
    expect(result).toMatchObject({
      success: true,
      summary: "Fixed it",
      pullRequestUrl: "https://codehost.example/acme/web/pull/7",
      costUsd: 0.42,
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(hooks.events).toEqual([
      { kind: "progress", text: "hello", detail: "status" },
      { kind: "cost", usd: 0.25 },
    ]);
    expect(record.exits[0]).toMatchObject({ exitCode: 0, signal: undefined, resultFile: RESULT });
    const input = record.inputs[0];
    expect(input?.workspace).toBe(join(config.workspaceDir, spec.run.id));
    expect(input?.files.result.startsWith(`${input?.workspace}/`)).toBe(false);
    expect(handle.logRef).toBe(join(config.logDir, `${spec.run.id}.log`));
    expect(handle.attachment).toMatchObject({
      pgid: handle.attachment.pid,
      workspace: input?.workspace,
      resultFile: input?.files.result,
      logFile: handle.logRef,
    });
    // A successful run's workspace and run folder are removed (keep_workspaces: on_failure), after
    // its outcome; close() waits for that (local-cleanup.test.ts).
    await backend.close();
    expect(existsSync(input?.workspace ?? "")).toBe(false);
    expect(existsSync(input?.files.result ?? "")).toBe(false);
  });

  it("writes the prompt and the snake_case ticket outside the workspace, and keeps a failed run's files", async () => {
    const { backend } = localBackend();
    const { engine, record } = fixtureEngine({ args: [fixture("write-result.mjs")], env: { FIXTURE_EXIT: "3" } });
    const { result } = await (await backend.start(specFor(engine), recordingHooks())).done;
    expect(result).toMatchObject({ success: false, failureReason: "no result file (exit code 3, signal undefined)" });
    const input = record.inputs[0];
    if (input === undefined) throw new Error("no input");
    expect(readdirSync(input.workspace)).toEqual([]);
    expect(readFileSync(input.files.prompt, "utf8")).toBe("Fix the login page.\n");
    expect(JSON.parse(readFileSync(input.files.ticket, "utf8"))).toEqual({
      id: "42",
      title: "Fix the login page",
      description: "It crashes on submit.",
      ticket_type: "bug_fix",
      repo_url: "https://codehost.example/acme/web",
      external_url: "https://tracker.example/acme/42",
      labels: ["bug", "agent"],
      source: "generic",
      raw_event: { action: "opened" },
    });
  });

  it("gives the engine only the environment it needs, and its stdin", async () => {
    const { backend } = localBackend();
    const out = tempDir();
    process.env.ERRAND_TEST_CONTROLLER_SECRET = "controller-only";
    try {
      const { engine, record } = fixtureEngine({
        args: [fixture("dump-env.mjs"), join(out, "env.json"), join(out, "stdin.txt")],
        env: { ENGINE_SETTING: "on", ERRAND_RUN_ID: "not-allowed-to-override" },
        apiKeyEnv: "FIXTURE_API_KEY",
        stdin: "the prompt on stdin\n",
      });
      const spec = specFor(engine, "sk-test-0123456789abcdef");
      await (await backend.start(spec, recordingHooks())).done;
      const env = JSON.parse(readFileSync(join(out, "env.json"), "utf8")) as Record<string, string>;
      const input = record.inputs[0];
      const optional = ["LANG", "LC_ALL"].filter((name) => (process.env[name] ?? "") !== "");
      expect(Object.keys(env).sort()).toEqual(
        [
          "PATH",
          "HOME",
          "TMPDIR",
          "TERM",
          "NO_COLOR",
          "ENGINE_SETTING",
          "FIXTURE_API_KEY",
          ...optional,
          "ERRAND_RUN_ID",
          "ERRAND_WORKSPACE",
          "ERRAND_PROMPT_FILE",
          "ERRAND_TICKET_FILE",
          "ERRAND_RESULT_FILE",
        ].sort(),
      );
      expect(env).toMatchObject({
        PATH: process.env.PATH,
        TERM: "dumb",
        FIXTURE_API_KEY: "sk-test-0123456789abcdef",
        ERRAND_RUN_ID: spec.run.id,
        ERRAND_WORKSPACE: input?.workspace,
        ERRAND_PROMPT_FILE: input?.files.prompt,
        ERRAND_TICKET_FILE: input?.files.ticket,
        ERRAND_RESULT_FILE: input?.files.result,
      });
      expect(readFileSync(join(out, "stdin.txt"), "utf8")).toBe("the prompt on stdin\n");
    } finally {
      delete process.env.ERRAND_TEST_CONTROLLER_SECRET;
    }
  });

  it("refuses a workspace that exists and is not empty, and leaves it alone", async () => {
    const { backend, config } = localBackend();
    const { engine } = fixtureEngine({ args: [fixture("write-result.mjs")] });
    const spec = specFor(engine);
    const workspace = join(config.workspaceDir, spec.run.id);
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, "someone-elses.txt"), "keep me");
    const error = await backend.start(spec, recordingHooks()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControllerError);
    expect(error).toMatchObject({
      code: "ERR_ENGINE_START",
      message: expect.stringContaining(`the workspace ${workspace} already exists and is not empty`),
    });
    expect((error as ControllerError).hint).toContain(`remove ${workspace}`);
    expect(readFileSync(join(workspace, "someone-elses.txt"), "utf8")).toBe("keep me");
  });
});

describe("local backend: engines that cannot start", () => {
  async function startError(command: string, name = "claude"): Promise<ControllerError> {
    const { backend, config } = localBackend();
    const { engine } = fixtureEngine({ name, command });
    const spec = specFor(engine);
    const error = await backend.start(spec, recordingHooks()).catch((e: unknown) => e);
    if (!(error instanceof ControllerError)) throw new Error(`expected a ControllerError, got ${String(error)}`);
    expect(error.code).toBe("ERR_ENGINE_START");
    // Nothing is left but the log, which says why.
    expect(existsSync(join(config.workspaceDir, spec.run.id))).toBe(false);
    expect(readFileSync(join(config.logDir, `${spec.run.id}.log`), "utf8")).toContain("[errand] could not start: ");
    return error;
  }

  it("names a command missing from PATH and how to fix it", async () => {
    const error = await startError("errand-no-such-agent");
    expect(error.message).toContain(
      'engine "claude" could not be started: the command "errand-no-such-agent" was not found on PATH',
    );
    expect(error.hint).toBe(
      "install errand-no-such-agent or set engines.claude.command to the full path of the executable",
    );
  });

  it("names a missing absolute path", async () => {
    const error = await startError("/opt/errand-missing/bin/agent");
    expect(error.message).toContain('the command "/opt/errand-missing/bin/agent" does not exist');
    expect(error.hint).toContain("engines.claude.command");
  });

  it("names a file that is not executable", async () => {
    const file = join(tempDir(), "agent.sh");
    writeFileSync(file, "#!/bin/sh\necho hi\n");
    chmodSync(file, 0o644);
    const error = await startError(file);
    expect(error.message).toContain(`"${file}" is not an executable file`);
    expect(error.hint).toBe(`make it executable (chmod +x ${file}) or set engines.claude.command to an executable`);
  });

  it("names a script whose interpreter is missing", async () => {
    const file = join(tempDir(), "agent.sh");
    writeFileSync(file, "#!/nonexistent/errand-interpreter\n");
    chmodSync(file, 0o755);
    const error = await startError(file);
    expect(error.message).toContain("the interpreter named on its #! line is probably missing");
  });

  it("turns an engine that cannot build its command into a start error", async () => {
    const { backend } = localBackend();
    const { engine } = fixtureEngine({ throwOnInvocation: true });
    await expect(backend.start(specFor(engine), recordingHooks())).rejects.toMatchObject({
      code: "ERR_ENGINE_START",
      message: 'engine "fixture" could not build its command: no command configured',
      hint: "check the settings under engines.fixture",
    });
  });
});
