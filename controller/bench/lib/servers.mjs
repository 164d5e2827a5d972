// Starts one bench server in its own process and reads its CPU time.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { SECRET } from "./fixture.mjs";

export const SERVERS = [
  { name: "bare node:http", file: "bare.mjs" },
  { name: "errand webhook", file: "errand.mjs" },
  { name: "@octokit/webhooks", file: "octokit.mjs" },
  // The controller's intake: SQLite dedupe, a ticket and a Queued run stored before each 200.
  { name: "errand durable intake", file: "durable.mjs" },
  // A yardstick, not a peer: node:http + HMAC + one JSON.parse, nothing else.
  { name: "floor: HMAC + JSON.parse", file: "floor.mjs" },
];

export function startServer(file, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, new URL(`../servers/${file}`, import.meta.url).pathname], {
    env: { ...process.env, BENCH_SECRET: SECRET, ERRAND_LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "ignore"],
  });
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => {
      const m = /ready (\d+)/.exec(String(d));
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.on("exit", (code) => reject(new Error(`${file} exited with ${code}`)));
  });
}

export async function stopServer(child) {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
}

// user + system CPU of a process in milliseconds (Linux /proc; clock ticks of 10 ms).
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function cpuSplitMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}
