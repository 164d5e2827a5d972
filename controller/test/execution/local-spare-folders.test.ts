import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSpareFolders } from "../../src/execution/local/spare-folders.js";
import { fixtureEngine } from "./helpers/fixture-engine.js";
import { fixture, localBackend, onCleanup, recordingHooks, specFor, tempDir } from "./helpers/local-setup.js";

const SUCCESS = JSON.stringify({ success: true, summary: "done", pull_request_url: "" });

/** The spare folders kept under `workspaceDir`, by the name of the process folder that holds them. */
function sparesUnder(workspaceDir: string): Record<string, string[]> {
  const parent = join(workspaceDir, ".errand", "spare");
  if (!existsSync(parent)) return {};
  return Object.fromEntries(readdirSync(parent).map((own) => [own, readdirSync(join(parent, own)).sort()]));
}

describe("spare folders", () => {
  it("keeps an emptied folder and hands it to the next taker under its new name, the same folder", async () => {
    const root = tempDir();
    const spares = createSpareFolders(root);
    expect(spares.take("workspace", join(root, "a"))).toBe(false);
    mkdirSync(join(root, "run-1"));
    const inode = statSync(join(root, "run-1")).ino;
    expect(await spares.keep("workspace", join(root, "run-1"))).toBe(true);
    expect(existsSync(join(root, "run-1"))).toBe(false);
    expect(Object.values(sparesUnder(root))).toEqual([["workspace-0"]]);
    expect(spares.take("run", join(root, "run-2"))).toBe(false); // the other kind has none
    expect(spares.take("workspace", join(root, "run-2"))).toBe(true);
    expect(statSync(join(root, "run-2")).ino).toBe(inode);
    expect(spares.take("workspace", join(root, "run-3"))).toBe(false);
  });

  it("keeps no more than it may, and says so, so that the caller removes the rest", async () => {
    const root = tempDir();
    const spares = createSpareFolders(root, 2);
    for (const name of ["a", "b", "c"]) mkdirSync(join(root, name));
    const kept = await Promise.all(["a", "b", "c"].map((name) => spares.keep("workspace", join(root, name))));
    expect(kept.filter(Boolean)).toHaveLength(2);
    expect(kept.filter((k) => !k)).toHaveLength(1);
  });

  it("keeps no folder whose mode is not the one the controller gave it (an engine may chmod its workspace)", async () => {
    const root = tempDir();
    const spares = createSpareFolders(root);
    for (const name of ["locked", "opened", "run-open"]) mkdirSync(join(root, name));
    const fresh = statSync(join(root, "opened")).mode & 0o7777;
    chmodSync(join(root, "locked"), 0o500);
    chmodSync(join(root, "opened"), fresh ^ 0o020); // group write given (or taken): no longer as made
    expect(await spares.keep("workspace", join(root, "locked"))).toBe(false);
    expect(await spares.keep("workspace", join(root, "opened"))).toBe(false);
    // A run folder is made 0700; one that is not (this one has a fresh folder's mode) is not kept.
    expect(await spares.keep("run", join(root, "run-open"))).toBe(false);
    expect(
      existsSync(join(root, "locked")) && existsSync(join(root, "opened")) && existsSync(join(root, "run-open")),
    ).toBe(true);
    mkdirSync(join(root, "fresh"));
    expect(await spares.keep("workspace", join(root, "fresh"))).toBe(true);
  });

  it("skips a spare removed by hand; leaves a spare where it is when the new name is taken by a folder with files", async () => {
    const root = tempDir();
    const spares = createSpareFolders(root);
    for (const name of ["a", "b"]) mkdirSync(join(root, name));
    await spares.keep("workspace", join(root, "a"));
    await spares.keep("workspace", join(root, "b"));
    const [own] = Object.keys(sparesUnder(root));
    // The newest spare (b's) is gone: the take goes on to a's.
    rmSync(join(root, ".errand", "spare", own!, "workspace-1"), { recursive: true });
    expect(spares.take("workspace", join(root, "c"))).toBe(true);
    await spares.keep("workspace", join(root, "c"));
    mkdirSync(join(root, "busy"));
    writeFileSync(join(root, "busy", "file"), "someone's");
    expect(spares.take("workspace", join(root, "busy"))).toBe(false);
    expect(readdirSync(join(root, "busy"))).toEqual(["file"]);
    expect(Object.values(sparesUnder(root))).toEqual([["workspace-2"]]);
  });

  it("removes the spares of a process that is gone, never those of one that runs", async () => {
    const root = tempDir();
    const parent = join(root, ".errand", "spare");
    const alive = spawn("sleep", ["30"]);
    onCleanup(() => void alive.kill("SIGKILL"));
    const dead = spawn("true");
    await new Promise((resolve) => dead.once("exit", resolve));
    for (const own of [`${alive.pid}-x`, `${dead.pid}-y`, "not-a-process"])
      mkdirSync(join(parent, own, "workspace-0"), { recursive: true });
    const spares = createSpareFolders(root);
    mkdirSync(join(root, "run-1"));
    await spares.keep("workspace", join(root, "run-1"));
    const deadline = Date.now() + 5000;
    while (Object.keys(sparesUnder(root)).length > 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    const left = Object.keys(sparesUnder(root));
    expect(left).toContain(`${alive.pid}-x`);
    expect(left).not.toContain(`${dead.pid}-y`);
    expect(left).not.toContain("not-a-process");
    expect(left.filter((own) => own.startsWith(`${process.pid}-`))).toHaveLength(1);
  });
});

describe("local backend: a finished run's folders serve the next run", () => {
  it("the next run gets the emptied folders, its own prompt and ticket, and never the result of the run before", async () => {
    const { backend, config } = localBackend({ keepWorkspaces: "never" });
    const first = fixtureEngine({ args: [fixture("write-result.mjs")], env: { FIXTURE_RESULT: SUCCESS } });
    // A longer prompt first: the next run's, written over it in place, must leave nothing of it.
    const firstSpec = { ...specFor(first.engine), prompt: "A first prompt, longer than the one after it.\n" };
    const one = await backend.start(firstSpec, recordingHooks());
    expect((await one.done).result.success).toBe(true);
    const deadline = Date.now() + 5000;
    while (Object.values(sparesUnder(config.workspaceDir)).flat().length < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    const kinds = Object.values(sparesUnder(config.workspaceDir)).map((names) =>
      names.map((n) => n.replace(/-\d+$/, "")),
    );
    expect(kinds).toEqual([["run", "workspace"]]);
    expect(existsSync(first.record.inputs[0]!.workspace)).toBe(false);

    // The second engine writes no result: the run fails for that, and does not take the first run's.
    const second = fixtureEngine({ args: [fixture("write-result.mjs")] });
    const spec = { ...specFor(second.engine), prompt: "The second prompt.\n" };
    const two = await backend.start(spec, recordingHooks());
    const input = second.record.inputs[0]!;
    expect(readdirSync(input.workspace)).toEqual([]);
    expect(readFileSync(input.files.prompt, "utf8")).toBe("The second prompt.\n");
    expect(statSync(input.files.prompt).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(input.files.ticket, "utf8"))).toMatchObject({ id: spec.ticket.id });
    expect(existsSync(input.files.result)).toBe(false);
    const outcome = await two.done;
    expect(outcome.result.success).toBe(false);
    expect(outcome.result.failureReason).toMatch(/result/);
    await backend.close();
  });

  it("a workspace with files in it is removed as before, never kept for another run", async () => {
    const { backend, config } = localBackend({ keepWorkspaces: "never" });
    const { engine, record } = fixtureEngine({
      args: [fixture("write-result.mjs")],
      env: { FIXTURE_RESULT: SUCCESS, FIXTURE_CHECKOUT: "3" },
    });
    const handle = await backend.start(specFor(engine), recordingHooks());
    expect((await handle.done).result.success).toBe(true);
    await backend.close();
    expect(existsSync(record.inputs[0]!.workspace)).toBe(false);
    expect(Object.values(sparesUnder(config.workspaceDir)).flat()).toEqual([]);
  });
});
