// Start-up to a listening webhook server: `errand webhook serve` and
// `errand run`, each spawned BENCH_ROUNDS (10) times; the time from spawn to
// the moment the port accepts a connection (polled every 2 ms), median, min
// and max, and the CPU time the process used by then (/proc, 10 ms ticks),
// which load lengthens less than wall time. The machine's load average is
// printed with the figures: the machine is shared.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInstallation, freePort, SECRET_ENV } from "./controller/installation.mjs";
import { load1, median } from "./controller/stats.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
// What `errand` runs (the bundle); BENCH_BIN=controller/dist/cli/bin.js measures the unbundled modules tsc wrote.
const BIN = process.env.BENCH_BIN ?? fileURLToPath(new URL("../bin/errand.cjs", import.meta.url));

const accepts = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** CPU time (user + system) a process has used so far, in ms (10 ms ticks). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Spawns `errand <args>`, resolves with the ms until `port` accepts and the CPU ms used by then, then stops it. */
async function startOnce(args, port) {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...SECRET_ENV },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let ms;
  let cpu;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`errand ${args.join(" ")} exited early: ${stderr}`);
    if (await accepts(port)) {
      ms = performance.now() - started;
      cpu = cpuMs(child.pid);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  child.kill("SIGTERM");
  await exited;
  return { ms, cpu };
}

async function measure(name, args, port) {
  const runs = [];
  for (let i = 0; i < ROUNDS; i++) runs.push(await startOnce(args, port));
  const times = runs.map((r) => r.ms);
  const f = (ms) => ms.toFixed(0);
  console.log(
    `| ${name} | ${f(median(times))} | ${f(Math.min(...times))} | ${f(Math.max(...times))} | ${f(median(runs.map((r) => r.cpu)))} | ${load1()} |`,
  );
}

const installation = await createInstallation({ concurrency: 1 });
const servePort = await freePort();
const serveConfig = join(installation.dir, "webhook.yaml");
writeFileSync(
  serveConfig,
  `webhook:\n  host: 127.0.0.1\n  port: ${servePort}\n  generic:\n    auth_mode: hmac\n    secret: { secret: bench-webhook }\n`,
);

console.log(`\nSpawn to a listening webhook port, ${ROUNDS} starts each (node ${process.version}).\n`);
console.log("| command | median ms | min | max | CPU ms (median) | load (1 min) |\n|---|---:|---:|---:|---:|---:|");
// `node startup.bench.mjs webhook` (or `run`) measures one command only.
const only = process.argv[2];
if (only !== "run") await measure("errand webhook serve", ["webhook", "serve", "--config", serveConfig], servePort);
if (only !== "webhook")
  await measure(
    "errand run (SQLite store, no channels)",
    ["run", "--config", installation.configFile],
    installation.webhookPort,
  );
