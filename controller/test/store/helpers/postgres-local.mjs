// JavaScript, so that the controller bench (bench/controller/postgres-store.mjs) starts its server the same way.
import { execFile, spawn, spawnSync } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The test layout of client authentication: passwords for roles in password_required, trust for the rest. */
export const HBA_LINES = [
  "local all all trust",
  "host all +password_required all scram-sha-256",
  "host all all all trust",
];

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server in a temporary folder with the binaries in `bin`: initdb
 * and pg_ctl, as the `postgres` user when this process is root (initdb
 * refuses root), with fsync off, on 127.0.0.1; its superuser is `test`. The
 * folder goes once the server is down: on stop(), when the start fails, and
 * when the test process exits without stopping it (the server is taken down
 * with it, and a detached reaper removes the folder once the server is gone).
 */
export async function startLocalPostgres(bin, extraSettings = "") {
  const dir = mkdtempSync(join(tmpdir(), "errand-pg-"));
  const data = join(dir, "data");
  try {
    return await startIn(bin, dir, data, extraSettings);
  } catch (error) {
    // pg_ctl -w may give up on a server that still starts: it must be down before its folder goes.
    const pid = postmasterPid(data);
    if (pid !== undefined && alive(pid)) process.kill(pid, "SIGQUIT");
    if (pid === undefined || (await gone(pid, 10_000))) rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

async function startIn(bin, dir, data, extraSettings) {
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const [uid, gid] = ["-u", "-g"].map((flag) =>
      Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout),
    );
    chownSync(dir, uid, gid);
  }
  const pgRun = (tool, args) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", join(bin, tool), ...args]) : run(join(bin, tool), args);
  await pgRun("initdb", ["-D", data, "-U", "test", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"]);
  writeFileSync(join(data, "pg_hba.conf"), `${HBA_LINES.join("\n")}\n`);
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 ${extraSettings}`;
    try {
      await pgRun("pg_ctl", ["-D", data, "-w", "-l", join(dir, "server.log"), "-o", settings, "start"]);
      break;
    } catch (error) {
      // Another test file may have taken the port between the probe and the start.
      if (attempt === 3)
        throw new Error(`PostgreSQL did not start: ${readFileSync(join(dir, "server.log"), "utf8")}`, { cause: error });
    }
  }
  const pid = postmasterPid(data);
  if (pid === undefined) throw new Error(`PostgreSQL started but wrote no ${join(data, "postmaster.pid")}`);
  const onExit = () => {
    // SIGQUIT: immediate shutdown. An 'exit' listener cannot wait for it, so a detached process does.
    if (alive(pid)) process.kill(pid, "SIGQUIT");
    spawn(process.execPath, ["-e", REAPER, String(pid), dir], { detached: true, stdio: "ignore" }).unref();
  };
  process.once("exit", onExit);
  return {
    host: "127.0.0.1",
    port,
    /** The folder of the server's Unix socket (the socket is .s.PGSQL.<port> in it). */
    socketDir: dir,
    /** The postmaster's pid: the bench counts the server's CPU over it and its backends. */
    pid,
    user: "test",
    password: undefined,
    authConfigured: true,
    async stop() {
      process.off("exit", onExit);
      // SIGINT is PostgreSQL's fast shutdown: sessions are ended, nothing waits for clients.
      process.kill(pid, "SIGINT");
      if (!(await gone(pid, 10_000))) {
        process.kill(pid, "SIGKILL");
        if (!(await gone(pid, 5_000)))
          throw new Error(`PostgreSQL (pid ${pid}) still runs after SIGKILL; its folder ${dir} is left in place`);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Removes the folder (argv: postmaster pid, folder) once the server is gone; after a minute it gives up and leaves it.
const REAPER = `const { rmSync } = require("node:fs");
const [pid, dir] = process.argv.slice(1);
const started = Date.now();
const tick = () => {
  try { process.kill(Number(pid), 0); } catch { return rmSync(dir, { recursive: true, force: true }); }
  if (Date.now() - started < 60000) setTimeout(tick, 50);
};
tick();`;

function postmasterPid(data) {
  try {
    const pid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves true once `pid` is gone, false if it still runs after `ms`. */
async function gone(pid, ms) {
  for (const until = Date.now() + ms; alive(pid); ) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
