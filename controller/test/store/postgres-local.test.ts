import { spawn } from "node:child_process";
import { chmodSync, existsSync, readdirSync } from "node:fs";
import { dirname } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import { runIn } from "./conformance/support.js";
import { startLocalPostgres } from "./helpers/postgres-local.mjs";
import { findPostgresBin } from "./helpers/postgres-strategy.js";

const HELPER = new URL("./helpers/postgres-local.mjs", import.meta.url).href;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; !condition(); await new Promise((r) => setTimeout(r, 50)))
    if (Date.now() > end) return false;
  return true;
}

// The local initdb server's folder (data, socket, log) is removed once the server is down, however its test process ends.
describe.runIf(findPostgresBin() !== undefined)("the local PostgreSQL server of the tests", () => {
  it("leaves no folder once stopped", async () => {
    const server = await startLocalPostgres(findPostgresBin()!);
    let folder: string;
    try {
      const client = new pg.Client({ connectionString: `postgres://test@127.0.0.1:${server.port}/postgres` });
      await client.connect();
      folder = dirname(
        ((await client.query("SHOW data_directory")).rows[0] as { data_directory: string }).data_directory,
      );
      await client.end();
      expect(existsSync(folder)).toBe(true);
    } finally {
      await server.stop();
    }
    expect(existsSync(folder)).toBe(false);
  }, 60_000);

  it("serves a store over its Unix socket, as docs/postgres-store.md shows the URL", async () => {
    const server = await startLocalPostgres(findPostgresBin()!);
    try {
      const url = `postgres://test@/postgres?host=${encodeURIComponent(server.socketDir)}&port=${server.port}`;
      const store = await createPostgresStore({ connectionString: url });
      try {
        const run = await runIn(store, "Running");
        const done = await store.transition({ runId: run.id, from: ["Running"], to: "Succeeded", reason: "done" });
        expect(done).toMatchObject({ state: "Succeeded" });
        expect((await store.transitions(run.id)).map((t) => t.to)).toEqual(["Queued", "Running", "Succeeded"]);
      } finally {
        await store.close();
      }
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("leaves no folder, and no server, when its test process exits without stopping it", async () => {
    const tmp = tempDir("errand-pg-early-exit-");
    // The server runs as the postgres user when the tests run as root: it must reach its folder in here.
    chmodSync(tmp, 0o755);
    // A process that starts a server, reports the postmaster's pid (the only process named postgres it started) and exits.
    const script = `
      const { startLocalPostgres } = await import(${JSON.stringify(HELPER)});
      const { readFileSync, readdirSync } = await import("node:fs");
      const { join } = await import("node:path");
      await startLocalPostgres(${JSON.stringify(findPostgresBin())});
      const [folder] = readdirSync(process.env.TMPDIR);
      process.stdout.write(readFileSync(join(process.env.TMPDIR, folder, "data", "postmaster.pid"), "utf8").split("\\n")[0]);
      process.exit(0);
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, TMPDIR: tmp },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    const code = await new Promise((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    const pid = Number(out);
    expect(pid).toBeGreaterThan(0);
    expect(await until(() => !isRunning(pid), 15_000)).toBe(true);
    expect(await until(() => readdirSync(tmp).length === 0, 5_000), `left: ${readdirSync(tmp).join(", ")}`).toBe(true);
  }, 60_000);
});
