import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";

// A child process, because a test worker may not set its umask; the built store (npm run build -w controller).
const STORE = resolve(import.meta.dirname, "../../dist/store/sqlite/sqlite-store.js");

/**
 * Opens the store at `path` in a process with umask 022, stores a ticket (so
 * the -wal and -shm files exist) and reports the mode of each store file
 * while the store is open, then after it is closed.
 */
function modesUnderUmask022(path: string): { open: Record<string, string>; closed: Record<string, string> } {
  const script = `
    import { existsSync, statSync } from "node:fs";
    process.umask(0o022);
    const { createSqliteStore } = await import(${JSON.stringify(STORE)});
    const path = ${JSON.stringify(path)};
    const modes = () => Object.fromEntries(["", "-wal", "-shm"].filter((s) => existsSync(path + s)).map((s) => [s || "db", (statSync(path + s).mode & 0o777).toString(8)]));
    const store = await createSqliteStore({ path });
    await store.acceptTickets([{ source: "generic", id: "T-1", title: "secret plans", description: "", ticketType: "bug_fix", repoUrl: "", externalUrl: "", labels: [] }], "fixture");
    const open = modes();
    await store.close();
    process.stdout.write(JSON.stringify({ open, closed: modes() }));
  `;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000 });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout);
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe("SQLite store files are owner-only, whatever the umask", () => {
  it("a new store: its folder 0700, the database, -wal and -shm 0600", () => {
    const folder = join(tempDir("errand-modes-"), "state", "store");
    const path = join(folder, "errand.db");
    const modes = modesUnderUmask022(path);
    expect(modes.open).toEqual({ db: "600", "-wal": "600", "-shm": "600" });
    expect(Object.values(modes.closed).every((m) => m === "600")).toBe(true);
    expect(mode(folder)).toBe("700");
  });

  it("files left world-readable by an older errand are made 0600; a folder that exists keeps its mode", () => {
    const folder = join(tempDir("errand-modes-"), "project");
    mkdirSync(folder);
    chmodSync(folder, 0o755);
    const path = join(folder, "errand.db");
    writeFileSync(path, "", { mode: 0o644 });
    writeFileSync(`${path}-wal`, "", { mode: 0o644 });
    chmodSync(path, 0o644);
    chmodSync(`${path}-wal`, 0o644);
    const modes = modesUnderUmask022(path);
    expect(modes.open).toEqual({ db: "600", "-wal": "600", "-shm": "600" });
    expect(mode(folder)).toBe("755");
  });
});
