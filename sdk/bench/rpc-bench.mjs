#!/usr/bin/env node
// npm run bench:rpc: NotifyStart through a real SDK plugin process versus a
// bare @grpc/grpc-js server, plus cold start. See docs/benchmarks.md.
import { spawn } from "node:child_process";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { connectChannel, silentLogger } from "@errand/channel-sdk/host";
import { createClients, unaryCall } from "@errand/channel-sdk/protocol";
import { credentials } from "@grpc/grpc-js";
import { coldStarts, load, pluginSubjects, scaffoldPlugin } from "./cold-start.mjs";

const SEQUENTIAL = Number(process.env.BENCH_CALLS ?? 20000);
const THROUGHPUT_MS = Number(process.env.BENCH_MS ?? 3000);
const CONCURRENCY = 32;
// Steady state: with 500 warm-up calls the p99 still caught JIT compilation (about 3 ms for bare grpc-js too).
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10000);
const COLD_ROUNDS = Number(process.env.BENCH_COLD ?? 15);
// BENCH_PART=cold: only the cold starts (a few seconds), =calls: only latency and throughput.
const PART = process.env.BENCH_PART ?? "all";
const plugin = fileURLToPath(new URL("./noop-plugin.mjs", import.meta.url));
const ticket = {
  id: "1",
  title: "bench",
  description: "",
  ticketType: "issue",
  repoUrl: "",
  externalUrl: "",
  labels: [],
  source: "bench",
};

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (ns) => Number(ns) / 1e6;

async function measure(name, call) {
  for (let i = 0; i < WARMUP; i++) await call(); // warm-up: JIT and connection
  const latencies = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const t = process.hrtime.bigint();
    await call();
    latencies.push(ms(process.hrtime.bigint() - t));
  }
  latencies.sort((a, b) => a - b);
  let done = 0;
  const until = Date.now() + THROUGHPUT_MS;
  const worker = async () => {
    while (Date.now() < until) {
      await call();
      done++;
    }
  };
  const t = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const perSecond = done / ((Date.now() - t) / 1000);
  return { name, p50: pct(latencies, 50), p99: pct(latencies, 99), perSecond };
}

async function bare() {
  const child = spawn(process.execPath, [fileURLToPath(new URL("./bare-server.mjs", import.meta.url))], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const path = await new Promise((resolve) => child.stdout.once("data", (d) => resolve(String(d).trim())));
  const clients = createClients(`unix:${path}`, credentials.createInsecure());
  try {
    return await measure("bare @grpc/grpc-js", () =>
      unaryCall(clients.channel, "notifyStart", { ticket, taskRunId: "r", engine: "e" }, { timeoutMs: 5000 }),
    );
  } finally {
    clients.close();
    child.kill();
  }
}

async function sdk() {
  const channel = await connectChannel({ command: process.execPath, args: [plugin], logger: silentLogger });
  try {
    return await measure("SDK plugin (connectChannel)", () =>
      channel.notifyStart(ticket, { engine: "e", taskRunId: "r" }),
    );
  } finally {
    await channel.close();
  }
}

const fmt = (n, d = 3) => n.toFixed(d);
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model}, node ${process.version}; load average ${load()} at start`,
);
let pass = true;
if (PART !== "cold") {
  console.log(
    `method: ${WARMUP} warm-up calls, then ${SEQUENTIAL} sequential NotifyStart calls for latency, then ${CONCURRENCY} concurrent callers for ${THROUGHPUT_MS} ms for throughput; both over a Unix socket to a separate process\n`,
  );
  const baseline = await bare();
  const ours = await sdk();
  for (const r of [baseline, ours]) {
    console.log(
      `${r.name.padEnd(30)} p50 ${fmt(r.p50)} ms   p99 ${fmt(r.p99)} ms   ${Math.round(r.perSecond)} calls/s`,
    );
  }
  const ratio = ours.perSecond / baseline.perSecond;
  console.log(`\nthroughput ratio SDK/bare: ${fmt(ratio, 2)} (target ≥ 0.50)`);
  console.log(`p99 latency: ${fmt(ours.p99)} ms (target < 2 ms)`);
  pass = ratio >= 0.5 && ours.p99 < 2;
}
if (PART !== "calls") {
  const scaffold = scaffoldPlugin();
  try {
    console.log(
      `\nscaffold (blank template) built in ${fmt(scaffold.buildMs / 1000, 1)} s: tsc, the bundle, one start to record the code cache`,
    );
    console.log(
      `cold start, spawn to ready (handshake line + health + Handshake RPC), ${COLD_ROUNDS} alternating rounds, medians; load average ${load()} before`,
    );
    const results = await coldStarts(pluginSubjects(plugin, scaffold.dir), COLD_ROUNDS);
    for (const r of results) {
      console.log(
        `${r.name.padEnd(48)} ${fmt(r.median, 0).padStart(4)} ms (min ${fmt(r.min, 0)})  ${fmt(r.ratio, 2)} ×${r.where ? `  ${r.where}` : ""}`,
      );
    }
    // The ratio, not the milliseconds, is the target: both sides of it slow down alike when the machine is busy.
    console.log(`load average ${load()} after; target: each judged plugin ≤ 1.50 × the yardstick`);
    const missed = results.filter((r) => r.judged && r.ratio > 1.5);
    for (const r of missed) console.log(`missed: ${r.name} at ${fmt(r.ratio, 2)} ×`);
    pass = pass && missed.length === 0;
  } finally {
    scaffold.remove();
  }
}
console.log(pass ? "\nall targets met" : "\nTARGET MISSED");
process.exitCode = pass ? 0 : 1;
