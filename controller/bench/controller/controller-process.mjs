// `errand run` as a process of its own, so that its memory and start-up are
// the controller's alone; its JSON log goes to a file in the installation.
import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { SECRET_ENV } from "./installation.mjs";

const BIN = fileURLToPath(new URL("../../bin/errand.cjs", import.meta.url));

/** BENCH_NODE_ARGS: options for the controller's node (`--cpu-prof --cpu-prof-dir=/tmp/prof`, say). */
function extraNodeArgs() {
  return (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
}

/** GET /readyz once; resolves with the status, or 0 when nothing answered. */
export function readyz(port) {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path: "/readyz", agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", () => resolve(0));
    req.end();
  });
}

/**
 * Spawns `errand run --config <file>` and resolves once /readyz answers 200,
 * with the time from the spawn to that answer (polled every 2 ms).
 */
export async function startController(installation, nodeArgs = extraNodeArgs()) {
  const log = openSync(installation.logFile, "a");
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, BIN, "run", "--config", installation.configFile], {
    cwd: installation.dir,
    env: { ...process.env, ...SECRET_ENV },
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone)
      throw new Error(`errand run exited with ${await exited} before it was ready; see ${installation.logFile}`);
    if ((await readyz(installation.opsPort)) === 200) break;
    await new Promise((r) => setTimeout(r, 2));
  }
  return { child, pid: child.pid, readyMs: performance.now() - started, exited };
}

/** SIGTERM, then waits for the exit. */
export async function stopController(running) {
  running.child.kill("SIGTERM");
  return running.exited;
}
