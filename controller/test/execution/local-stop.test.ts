import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureEngine } from "./helpers/fixture-engine.js";
import {
  fixture,
  isDead,
  killQuietly,
  localBackend,
  onCleanup,
  recordingHooks,
  specFor,
  tempDir,
} from "./helpers/local-setup.js";

/** Starts the stubborn fixture (leader and grandchild ignore SIGTERM) and waits until both run. */
async function startStubborn(backend: ReturnType<typeof localBackend>["backend"]) {
  const dir = tempDir();
  const marks = join(dir, "marks.txt");
  const pidFile = join(dir, "grandchild.pid");
  const { engine, record } = fixtureEngine({ args: [fixture("stubborn-group.mjs"), marks, pidFile] });
  const hooks = recordingHooks();
  const handle = await backend.start(specFor(engine), hooks);
  await hooks.progress("ready");
  const leader = handle.attachment.pid as number;
  const grandchild = Number(readFileSync(pidFile, "utf8"));
  // Should the backend fail to stop them, they do not outlive the test.
  onCleanup(() => killQuietly(-leader, grandchild));
  return { handle, record, marks, leader, grandchild };
}

describe("local backend: stopping a run", () => {
  it("sends SIGTERM to the whole group, then SIGKILL to what ignored it", async () => {
    const { backend } = localBackend();
    const { handle, record, marks, leader, grandchild } = await startStubborn(backend);
    expect(isDead(leader)).toBe(false);
    expect(isDead(grandchild)).toBe(false);

    await handle.stop("timeout");
    // Both got SIGTERM (the group, not just the leader) and survived it...
    expect(readFileSync(marks, "utf8").split("\n").filter(Boolean).sort()).toEqual(["grandchild TERM", "leader TERM"]);
    // ...and were then killed by SIGKILL.
    expect(isDead(leader)).toBe(true);
    expect(isDead(grandchild)).toBe(true);
    const { result, stoppedFor } = await handle.done;
    expect(record.exits[0]).toMatchObject({ exitCode: undefined, signal: "SIGKILL" });
    expect(stoppedFor).toBe("timeout");
    expect(result).toMatchObject({ success: false, failureReason: "stopped: timed out" });
    const log = readFileSync(handle.logRef, "utf8");
    expect(log.indexOf("stopping (timeout): SIGTERM to process group")).toBeLessThan(
      log.indexOf("SIGKILL to process group"),
    );
    expect(log).toContain("killed by SIGKILL");
  });

  it("sends no SIGKILL to an engine that exits on SIGTERM", async () => {
    const { backend } = localBackend({ killGraceMs: 60_000 });
    const marks = join(tempDir(), "marks.txt");
    const { engine, record } = fixtureEngine({ args: [fixture("graceful.mjs"), marks] });
    const hooks = recordingHooks();
    const handle = await backend.start(specFor(engine), hooks);
    await hooks.progress("ready");
    await handle.stop("cancel");
    const { result, stoppedFor } = await handle.done;
    expect(readFileSync(marks, "utf8")).toBe("TERM\n");
    expect(record.exits[0]).toMatchObject({ exitCode: 0, signal: undefined });
    expect(stoppedFor).toBe("cancel");
    expect(result).toMatchObject({ success: false, failureReason: "stopped: cancelled" });
    expect(readFileSync(handle.logRef, "utf8")).not.toContain("SIGKILL");
  });

  it("is idempotent: every call resolves, the first reason counts, the group is signalled once", async () => {
    const { backend } = localBackend();
    const { handle, marks, leader, grandchild } = await startStubborn(backend);
    await Promise.all([handle.stop("cost"), handle.stop("cancel"), handle.stop("cost")]);
    await handle.stop("shutdown");
    expect((await handle.done).stoppedFor).toBe("cost");
    expect((await handle.done).result.failureReason).toBe("stopped: cost limit exceeded");
    expect(readFileSync(marks, "utf8").split("\n").filter(Boolean)).toHaveLength(2);
    expect(isDead(leader) && isDead(grandchild)).toBe(true);
  });

  it("a stop after the run ended changes nothing", async () => {
    const { backend } = localBackend();
    const result = JSON.stringify({ success: true, summary: "done" });
    const { engine } = fixtureEngine({ args: [fixture("write-result.mjs")], env: { FIXTURE_RESULT: result } });
    const handle = await backend.start(specFor(engine), recordingHooks());
    const outcome = await handle.done;
    await handle.stop("cancel");
    expect(outcome).toMatchObject({ stoppedFor: undefined, result: { success: true } });
    expect(await handle.done).toBe(outcome);
  });

  it("stops what an engine left running in its group when it exited", async () => {
    const { backend } = localBackend();
    const pidFile = join(tempDir(), "left.pid");
    const { engine } = fixtureEngine({ args: [fixture("leave-behind.mjs"), pidFile] });
    const handle = await backend.start(specFor(engine), recordingHooks());
    const { stoppedFor } = await handle.done;
    expect(stoppedFor).toBeUndefined();
    expect(existsSync(pidFile)).toBe(true);
    expect(isDead(Number(readFileSync(pidFile, "utf8")))).toBe(true);
    expect(readFileSync(handle.logRef, "utf8")).toContain(
      "the engine exited and left processes in its group: SIGTERM to process group",
    );
  });

  it("close() stops runs still running", async () => {
    const { backend } = localBackend();
    const { handle, leader, grandchild } = await startStubborn(backend);
    await backend.close();
    expect((await handle.done).stoppedFor).toBe("shutdown");
    expect(isDead(leader) && isDead(grandchild)).toBe(true);
    await expect(backend.start(specFor(fixtureEngine({}).engine), recordingHooks())).rejects.toMatchObject({
      code: "ERR_INTERNAL",
    });
  });

  it("close() also stops a run that was still starting", async () => {
    const { backend } = localBackend();
    const { engine } = fixtureEngine({ args: [fixture("graceful.mjs"), join(tempDir(), "marks.txt")] });
    const starting = backend.start(specFor(engine), recordingHooks());
    await backend.close();
    const handle = await starting;
    expect((await handle.done).stoppedFor).toBe("shutdown");
    expect(isDead(handle.attachment.pid as number)).toBe(true);
  });
});
