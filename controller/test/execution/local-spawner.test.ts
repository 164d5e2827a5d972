import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createSpawner } from "../../src/execution/local/helper-spawner.js";
import { SPAWNER_LOST_REASON } from "../../src/execution/local/stop-reasons.js";
import { createLocalBackend } from "../../src/execution/local-backend.js";
import { fixtureEngine } from "./helpers/fixture-engine.js";
import {
  fixture,
  isDead,
  killQuietly,
  onCleanup,
  recordingHooks,
  recordingLogger,
  specFor,
  tempDir,
  until,
} from "./helpers/local-setup.js";

/** A backend whose spawner the test can reach (to kill it). */
function backendWithSpawner() {
  const root = tempDir();
  const logger = recordingLogger();
  const spawner = createSpawner(logger);
  const config = {
    workspaceDir: join(root, "workspaces"),
    logDir: join(root, "logs"),
    logMaxBytes: 1024 * 1024,
    killGraceMs: 300,
    keepWorkspaces: "on_failure" as const,
  };
  const backend = createLocalBackend({ config, logger, spawner });
  onCleanup(async () => {
    await backend.close();
    spawner.close();
  });
  return { backend, spawner, logger };
}

const SUCCESS = JSON.stringify({
  success: true,
  summary: "done",
  pull_request_url: "https://codehost.example/acme/web/pull/1",
});

describe("local backend: the engine spawner process", () => {
  it("spawns engines from a process of its own, not from the controller, started by warm() or the first run", async () => {
    const { backend, spawner } = backendWithSpawner();
    expect(spawner.pid).toBeUndefined();
    backend.warm?.();
    const warmed = spawner.pid;
    expect(warmed).toBeDefined();
    const marks = join(tempDir(), "marks.txt");
    const { engine } = fixtureEngine({ args: [fixture("graceful.mjs"), marks] });
    const hooks = recordingHooks();
    const handle = await backend.start(specFor(engine), hooks);
    await hooks.progress("ready");
    const pid = handle.attachment.pid as number;
    onCleanup(() => killQuietly(-pid));
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Its parent is the spawner; it leads its own process group and session.
    expect(Number(fields[1])).toBe(spawner.pid);
    expect(spawner.pid).toBe(warmed);
    expect(Number(fields[2])).toBe(pid);
    expect(spawner.pid).not.toBe(process.pid);
    await handle.stop("cancel");
    expect((await handle.done).stoppedFor).toBe("cancel");
  });

  it("a spawner killed while an engine runs: the engine's group is stopped, the run fails saying why, the next run gets a new spawner", async () => {
    const { backend, spawner, logger } = backendWithSpawner();
    const marks = join(tempDir(), "marks.txt");
    const { engine } = fixtureEngine({ args: [fixture("graceful.mjs"), marks] });
    const hooks = recordingHooks();
    const handle = await backend.start(specFor(engine), hooks);
    await hooks.progress("ready");
    const engines = handle.attachment.pid as number;
    onCleanup(() => killQuietly(-engines));
    const first = spawner.pid as number;

    process.kill(first, "SIGKILL");
    const { result, stoppedFor } = await handle.done;
    expect(stoppedFor).toBeUndefined();
    expect(result.success).toBe(false);
    expect(result.failureReason).toBe(`${SPAWNER_LOST_REASON}; its processes were stopped`);
    // SIGTERM reached the engine's group (graceful.mjs notes it), and nothing of it is left.
    expect(readFileSync(marks, "utf8")).toBe("TERM\n");
    expect(isDead(engines)).toBe(true);
    const log = readFileSync(handle.logRef, "utf8");
    expect(log).toContain(SPAWNER_LOST_REASON);
    expect(log).toContain(`SIGTERM to process group ${engines}`);
    expect(logger.records.some((r) => r.level === "error" && r.message.includes("engine spawner process ended"))).toBe(
      true,
    );

    const { engine: next } = fixtureEngine({ args: [fixture("write-result.mjs")], env: { FIXTURE_RESULT: SUCCESS } });
    const again = await backend.start(specFor(next), recordingHooks());
    expect((await again.done).result).toMatchObject({ success: true, summary: "done" });
    expect(spawner.pid).toBeDefined();
    expect(spawner.pid).not.toBe(first);
  });

  it("a spawner killed after its engine ended (exit not yet reported): the run is recorded from its result file", async () => {
    const { backend, spawner } = backendWithSpawner();
    const dir = tempDir();
    const go = join(dir, "go");
    const { engine, record } = fixtureEngine({
      args: [fixture("result-on-signal.mjs"), go],
      env: { FIXTURE_RESULT: SUCCESS },
    });
    const hooks = recordingHooks();
    const handle = await backend.start(specFor(engine), hooks);
    await hooks.progress("ready");
    const engines = handle.attachment.pid as number;
    onCleanup(() => killQuietly(-engines));
    const helper = spawner.pid as number;
    // Stopped, the spawner cannot report the exit (nor reap the engine, which stays a zombie).
    process.kill(helper, "SIGSTOP");
    onCleanup(() => killQuietly(helper));
    writeFileSync(go, "");
    await until(() => isDead(engines), "the engine to end");
    process.kill(helper, "SIGKILL");

    const { result } = await handle.done;
    expect(result).toMatchObject({
      success: true,
      summary: "done",
      pullRequestUrl: "https://codehost.example/acme/web/pull/1",
    });
    expect(record.exits[0]).toMatchObject({ exitUnknown: true, exitCode: undefined, signal: undefined });
    const log = readFileSync(handle.logRef, "utf8");
    expect(log).toContain(SPAWNER_LOST_REASON);
    expect(log).toContain("ended (exit status unknown)");
  });

  it("a start under way when the spawner dies fails with a clear reason, and the backend goes on", async () => {
    const { backend, spawner } = backendWithSpawner();
    const { engine: warm } = fixtureEngine({ args: [fixture("write-result.mjs")], env: { FIXTURE_RESULT: SUCCESS } });
    await (await backend.start(specFor(warm), recordingHooks())).done;
    const helper = spawner.pid as number;
    process.kill(helper, "SIGSTOP");
    onCleanup(() => killQuietly(helper));
    const { engine } = fixtureEngine({ args: [fixture("write-result.mjs")], env: { FIXTURE_RESULT: SUCCESS } });
    const starting = backend.start(specFor(engine), recordingHooks());
    await sleep(100);
    process.kill(helper, "SIGKILL");
    await expect(starting).rejects.toThrow(
      /could not be started.*engine spawner process ended before the engine started/,
    );
    const again = await backend.start(specFor(warm), recordingHooks());
    expect((await again.done).result.success).toBe(true);
  });
});
