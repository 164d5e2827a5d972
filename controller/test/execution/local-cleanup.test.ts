import { execFileSync } from "node:child_process";
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createSpawner } from "../../src/execution/local/helper-spawner.js";
import type { Spawner } from "../../src/execution/local/spawner.js";
import { createLocalBackend } from "../../src/execution/local-backend.js";
import { fixtureEngine } from "./helpers/fixture-engine.js";
import { fixture, onCleanup, recordingHooks, recordingLogger, specFor, tempDir, until } from "./helpers/local-setup.js";

const SUCCESS = JSON.stringify({
  success: true,
  summary: "done",
  pull_request_url: "https://codehost.example/acme/web/pull/1",
});

/** A spawner that is really stopped after the test. */
function spawner(): Spawner {
  const made = createSpawner(recordingLogger());
  onCleanup(() => made.close());
  return made;
}

/**
 * A temporary folder on tmpfs when there is one: on a disk that has seen many
 * files made and removed, 45,000 new files can take a minute (ext4 without a
 * journal, see docs/benchmarks.md); on tmpfs about a second.
 */
function roomyTempDir(): string {
  try {
    accessSync("/dev/shm", constants.W_OK);
  } catch {
    return tempDir();
  }
  const dir = mkdtempSync(join("/dev/shm", "errand-exec-"));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** `count` files in a fresh folder under `root`. */
function tree(root: string, count: number): string {
  const dir = join(root, "tree");
  mkdirSync(join(dir, "sub"), { recursive: true });
  for (let i = 0; i < count; i++) writeFileSync(join(dir, i % 2 === 0 ? "sub" : "", `f${i}`), "x");
  return dir;
}

/**
 * A real spawner whose removals wait for the test to let them go, and can
 * be made to fail: shows what waits for a removal and what does not.
 */
function gatedSpawner(inner: Spawner): Spawner & { release(): void; asked: string[][]; failWith: Error | undefined } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const asked: string[][] = [];
  const gated = {
    asked,
    failWith: undefined as Error | undefined,
    release: () => release(),
    get pid() {
      return inner.pid;
    },
    start: () => inner.start(),
    spawn: inner.spawn.bind(inner),
    closeOutput: (pid: number) => inner.closeOutput(pid),
    close: () => inner.close(),
    async remove(paths: readonly string[]) {
      asked.push([...paths]);
      await gate;
      return gated.failWith ?? inner.remove(paths);
    },
  };
  return gated;
}

function gatedBackend(keepWorkspaces: "on_failure" | "never" = "on_failure") {
  const root = tempDir();
  const logger = recordingLogger();
  const inner = spawner();
  const gated = gatedSpawner(inner);
  const config = {
    workspaceDir: join(root, "workspaces"),
    logDir: join(root, "logs"),
    logMaxBytes: 1024 * 1024,
    killGraceMs: 300,
    keepWorkspaces,
  };
  const backend = createLocalBackend({ config, logger, spawner: gated });
  onCleanup(async () => {
    gated.release();
    await backend.close();
  });
  return { backend, spawner: gated, logger };
}

describe("local backend: removing a finished run's folders", () => {
  it("an empty workspace and the controller's own files are removed in the controller, without the spawner", async () => {
    const { backend, spawner } = gatedBackend();
    const { engine, record } = fixtureEngine({ args: [fixture("write-result.mjs")], env: { FIXTURE_RESULT: SUCCESS } });
    const handle = await backend.start(specFor(engine), recordingHooks());
    expect((await handle.done).result.success).toBe(true);
    await backend.close();
    expect(spawner.asked).toEqual([]);
    expect(existsSync(record.inputs[0]?.workspace ?? "")).toBe(false);
    expect(existsSync(join(record.inputs[0]?.files.result ?? "", ".."))).toBe(false);
    expect(readFileSync(handle.logRef, "utf8")).toMatch(/exited with code 0 after \d+ ms; succeeded\n$/);
  });

  it("a checkout is removed by the spawner after the outcome settles; close() waits for it and the log's last line", async () => {
    const { backend, spawner } = gatedBackend();
    const { engine, record } = fixtureEngine({
      args: [fixture("write-result.mjs")],
      env: { FIXTURE_RESULT: SUCCESS, FIXTURE_CHECKOUT: "50" },
    });
    const handle = await backend.start(specFor(engine), recordingHooks());
    const { result } = await handle.done;
    expect(result.success).toBe(true);
    const workspace = record.inputs[0]?.workspace ?? "";
    const runDir = join(record.inputs[0]?.files.result ?? "", "..");
    // The run is over while its folders are still there: nothing waited for the removal.
    await until(() => spawner.asked.length > 0, "the removal to reach the spawner");
    expect(spawner.asked).toEqual([[workspace, runDir]]);
    expect(existsSync(workspace)).toBe(true);

    let closed = false;
    const closing = backend.close().then(() => {
      closed = true;
    });
    await sleep(50);
    expect(closed).toBe(false);
    spawner.release();
    await closing;
    expect(existsSync(workspace)).toBe(false);
    expect(existsSync(runDir)).toBe(false);
    expect(readFileSync(handle.logRef, "utf8")).toMatch(/exited with code 0 after \d+ ms; succeeded\n$/);
  });

  it("a removal that fails is logged and noted in the run's log", async () => {
    const { backend, spawner, logger } = gatedBackend("never");
    spawner.failWith = new Error("EBUSY: resource busy or locked, rmdir '/somewhere'");
    spawner.release();
    const { engine, record } = fixtureEngine({
      args: [fixture("write-result.mjs")],
      env: { FIXTURE_RESULT: SUCCESS, FIXTURE_CHECKOUT: "1" },
    });
    const handle = await backend.start(specFor(engine), recordingHooks());
    await handle.done;
    await backend.close();
    const workspace = record.inputs[0]?.workspace ?? "";
    expect(readFileSync(handle.logRef, "utf8")).toContain(
      `[errand] could not remove the workspace ${workspace}: EBUSY: resource busy or locked`,
    );
    expect(logger.records).toContainEqual(
      expect.objectContaining({ level: "warn", message: "could not remove the run's workspace" }),
    );
  });
});

describe("engine spawner: remove()", () => {
  it("removes whole trees in the helper process and reports a failure", async () => {
    const made = spawner();
    made.start();
    const dir = tempDir();
    const big = tree(dir, 200);
    expect(await made.remove([big, join(dir, "missing")])).toBeUndefined();
    expect(existsSync(big)).toBe(false);
    // rm refuses a path ending in "." (and removes nothing): a failure that needs no special file system.
    const keep = join(dir, "keep");
    mkdirSync(keep);
    const failure = await made.remove([`${keep}/.`, join(dir, "missing")]);
    expect(failure?.message).toMatch(/refusing to remove '\.' or '\.\.'/);
    expect(existsSync(keep)).toBe(true);
  });

  it("without its helper (never started, or killed), removes in the controller's process", async () => {
    const made = spawner();
    const dir = tempDir();
    const first = tree(join(dir, "one"), 10);
    expect(await made.remove([first])).toBeUndefined();
    expect(existsSync(first)).toBe(false);
    expect(made.pid).toBeUndefined();

    made.start();
    const helper = made.pid as number;
    process.kill(helper, "SIGKILL");
    await until(() => made.pid === undefined, "the spawner to be gone");
    const second = tree(join(dir, "two"), 10);
    expect(await made.remove([second])).toBeUndefined();
    expect(existsSync(second)).toBe(false);
  });

  it("removes a checkout of 45,000 entries in one folder, and the helper lives on", async () => {
    const made = spawner();
    made.start();
    const helper = made.pid as number;
    // fs.rm in the helper's small heap ran out of memory at 40,000 entries (and every run it watched was lost).
    const big = join(roomyTempDir(), "checkout");
    mkdirSync(big);
    execFileSync("sh", ["-c", "seq 1 45000 | sed 's/^/f/' | xargs touch"], { cwd: big });
    expect(await made.remove([big])).toBeUndefined();
    expect(existsSync(big)).toBe(false);
    expect(made.pid).toBe(helper);
  }, 90_000);

  it("a helper asked to remove a tree finishes it before it exits, even when the controller closes at once", async () => {
    const made = spawner();
    made.start();
    const helper = made.pid as number;
    const big = tree(roomyTempDir(), 6000);
    const removal = made.remove([big]);
    made.close();
    await until(
      () => !existsSync(`/proc/${helper}`) || readFileSync(`/proc/${helper}/stat`, "utf8").includes(") Z "),
      "the helper to exit",
    );
    expect(existsSync(big)).toBe(false);
    // Its answer may not have come before the channel closed; then the controller removed (nothing) itself.
    expect(await removal).toBeUndefined();
  });
});
