import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ExecutionConfig } from "../../src/config/controller-config.js";
import type { RunHandle, RunSpec } from "../../src/execution/execution-backend.js";
import { bootId, processStartTime } from "../../src/execution/local/proc-stat.js";
import { createLocalBackend } from "../../src/execution/local-backend.js";
import type { TaskRun } from "../../src/runs/task-run.js";
import { fixtureEngine } from "./helpers/fixture-engine.js";
import {
  fixture,
  isDead,
  killQuietly,
  localBackend,
  onCleanup,
  recordingHooks,
  recordingLogger,
  specFor,
  tempDir,
} from "./helpers/local-setup.js";

const RESTARTED = "controller restarted while the run was running";

/** The backend of the restarted controller: same folders, nothing in memory. */
function restarted(config: ExecutionConfig["local"]) {
  const backend = createLocalBackend({ config, logger: recordingLogger() });
  onCleanup(() => backend.close());
  return backend;
}

/** The run as the store kept it while Running, with `attachment` changed as given. */
function stored(spec: RunSpec, handle: RunHandle, attachment: Record<string, unknown> = {}): TaskRun {
  return { ...spec.run, logRef: handle.logRef, attachment: { ...handle.attachment, ...attachment } };
}

/** A run of the stubborn fixture (leader and grandchild ignore SIGTERM), both running. */
async function stubbornRun(overrides: Partial<ExecutionConfig["local"]> = {}) {
  const { backend, config } = localBackend(overrides);
  const dir = tempDir();
  const pidFile = join(dir, "grandchild.pid");
  const { engine } = fixtureEngine({ args: [fixture("stubborn-group.mjs"), join(dir, "marks.txt"), pidFile] });
  const hooks = recordingHooks();
  const spec = specFor(engine);
  const handle = await backend.start(spec, hooks);
  await hooks.progress("ready");
  const leader = handle.attachment.pid as number;
  const grandchild = Number(readFileSync(pidFile, "utf8"));
  onCleanup(() => killQuietly(-leader, grandchild));
  return { config, spec, handle, leader, grandchild };
}

describe("local backend: runs found Running after a restart", () => {
  it("stops an engine group that still runs and fails the run", async () => {
    const { config, spec, handle, leader, grandchild } = await stubbornRun();
    const plan = await restarted(config).recover(stored(spec, handle), recordingHooks(), spec);
    expect(plan).toEqual({ action: "fail", reason: `${RESTARTED}; its processes were stopped` });
    expect(isDead(leader)).toBe(true);
    expect(isDead(grandchild)).toBe(true);
    expect(readFileSync(handle.logRef, "utf8")).toContain(
      `[errand] ${RESTARTED}: stopping its process group (process group ${leader})`,
    );
  });

  it("stops what an engine that ended left running in its group", async () => {
    const { config } = localBackend();
    const dir = tempDir();
    const pidFile = join(dir, "left.pid");
    // Started as the dead controller would have: in a group of its own.
    const leader = spawn(process.execPath, [fixture("leave-behind.mjs"), pidFile, "hold"], {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
    });
    const leaderPid = leader.pid as number;
    const leaderExit = new Promise((resolve) => leader.once("exit", resolve));
    while (!existsSync(pidFile)) await new Promise((resolve) => setTimeout(resolve, 10));
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    onCleanup(() => killQuietly(-leaderPid, grandchild));
    const attachment = {
      pid: leaderPid,
      pgid: leaderPid,
      startTime: processStartTime(leaderPid),
      bootId: bootId(),
      hostname: hostname(),
      workspace: join(dir, "ws"),
      resultFile: join(dir, "result.json"),
      logFile: join(dir, "run.log"),
    };
    leader.stdin?.end();
    await leaderExit;
    expect(isDead(grandchild)).toBe(false);

    const spec = specFor(fixtureEngine({}).engine);
    const plan = await restarted(config).recover({ ...spec.run, attachment }, recordingHooks(), spec);
    expect(plan).toEqual({
      action: "fail",
      reason: `${RESTARTED}; it had ended without writing a result; the processes it left were stopped`,
    });
    expect(isDead(grandchild)).toBe(true);
    expect(readFileSync(attachment.logFile, "utf8")).toContain(
      `the engine had ended; stopping the process it left (process group ${leaderPid})`,
    );
  });

  it("never signals a pid that now belongs to another process (other start time)", async () => {
    const { config, spec, handle, leader, grandchild } = await stubbornRun();
    const startTime = handle.attachment.startTime as number;
    const plan = await restarted(config).recover(
      stored(spec, handle, { startTime: startTime - 1 }),
      recordingHooks(),
      spec,
    );
    expect(plan).toEqual({ action: "fail", reason: `${RESTARTED}; it had ended without writing a result` });
    expect(isDead(leader)).toBe(false);
    expect(isDead(grandchild)).toBe(false);
    await handle.stop("shutdown");
  });

  it("never signals a process it cannot identify, or one on another host", async () => {
    const { config, spec, handle, leader } = await stubbornRun();
    const backend = restarted(config);
    const unproved = await backend.recover(stored(spec, handle, { startTime: undefined }), recordingHooks(), spec);
    expect(unproved).toEqual({
      action: "fail",
      reason: `${RESTARTED}; process ${leader} could not be proved to be its engine (no start time) and was left alone`,
    });
    const elsewhere = await backend.recover(stored(spec, handle, { hostname: "build-7" }), recordingHooks(), spec);
    expect(elsewhere).toEqual({
      action: "fail",
      reason: `${RESTARTED}; it ran on host build-7, whose processes were not touched`,
    });
    expect(isDead(leader)).toBe(false);
    await handle.stop("shutdown");
  });

  it("fails a run whose process is gone without a result, removing its workspace as configured", async () => {
    const { backend, config } = localBackend({ keepWorkspaces: "always" });
    const { engine, record } = fixtureEngine({ args: [fixture("write-result.mjs")] });
    const spec = specFor(engine);
    const handle = await backend.start(spec, recordingHooks());
    await handle.done;
    expect(isDead(handle.attachment.pid as number)).toBe(true);
    const plan = await restarted({ ...config, keepWorkspaces: "never" }).recover(
      stored(spec, handle),
      recordingHooks(),
      spec,
    );
    expect(plan).toEqual({ action: "fail", reason: `${RESTARTED}; it had ended without writing a result` });
    expect(existsSync(record.inputs[0]?.workspace ?? "")).toBe(false);
  });

  it("records a run that finished while the controller was down with its real result", async () => {
    const { backend, config } = localBackend({ keepWorkspaces: "always" });
    const result = JSON.stringify({
      success: true,
      summary: "Fixed it",
      pull_request_url: "https://codehost.example/acme/web/pull/9",
    });
    const { engine, record } = fixtureEngine({ args: [fixture("write-result.mjs")], env: { FIXTURE_RESULT: result } });
    const spec = specFor(engine);
    const handle = await backend.start(spec, recordingHooks());
    await handle.done;
    const plan = await restarted({ ...config, keepWorkspaces: "on_failure" }).recover(
      stored(spec, handle),
      recordingHooks(),
      spec,
    );
    if (plan.action !== "reattach") throw new Error(`expected reattach, got ${JSON.stringify(plan)}`);
    const outcome = await plan.handle.done;
    expect(outcome).toMatchObject({
      stoppedFor: undefined,
      result: { success: true, summary: "Fixed it", pullRequestUrl: "https://codehost.example/acme/web/pull/9" },
    });
    expect(outcome.result.durationMs).toBeGreaterThanOrEqual(0);
    expect(record.exits.at(-1)).toMatchObject({ exitCode: undefined, signal: undefined, resultFile: result });
    expect(plan.handle.logRef).toBe(handle.logRef);
    await plan.handle.stop("cancel");
    // Succeeded, keep_workspaces on_failure: removed.
    expect(existsSync(record.inputs[0]?.workspace ?? "")).toBe(false);
    expect(readFileSync(handle.logRef, "utf8")).toContain(
      `[errand] ${RESTARTED}: it had ended; recorded from its result file (succeeded)`,
    );
  });

  it("fails a run with no attachment", async () => {
    const { backend } = localBackend();
    const spec = specFor(fixtureEngine({}).engine);
    expect(await backend.recover(spec.run, recordingHooks(), spec)).toEqual({
      action: "fail",
      reason: `${RESTARTED}; no engine process was recorded for it`,
    });
    expect(await backend.recover({ ...spec.run, attachment: { pid: "12" } }, recordingHooks(), spec)).toMatchObject({
      action: "fail",
    });
  });
});
