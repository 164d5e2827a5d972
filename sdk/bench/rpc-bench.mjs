#!/usr/bin/env node
// npm run bench:rpc: NotifyStart through a real SDK plugin process versus a
// bare @grpc/grpc-js server, plus cold start. See docs/benchmarks.md.
import { spawn } from "node:child_process";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { connectChannel, silentLogger } from "@errand/channel-sdk/host";
import { createClients, unaryCall } from "@errand/channel-sdk/protocol";
import { credentials } from "@grpc/grpc-js";
import { callRounds, median } from "./call-rounds.mjs";
import { coldStarts, load, pluginSubjects, scaffoldPlugin } from "./cold-start.mjs";

// Per round; BENCH_ROUNDS alternating rounds of bare and SDK.
const SEQUENTIAL = Number(process.env.BENCH_CALLS ?? 10000);
const THROUGHPUT_MS = Number(process.env.BENCH_MS ?? 1500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
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

/** The bare grpc-js server in its own process, and a call to it. */
async function bare() {
  const child = spawn(process.execPath, [fileURLToPath(new URL("./bare-server.mjs", import.meta.url))], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const path = await new Promise((resolve) => child.stdout.once("data", (d) => resolve(String(d).trim())));
  const clients = createClients(`unix:${path}`, credentials.createInsecure());
  return {
    name: "bare @grpc/grpc-js",
    pid: child.pid,
    call: () => unaryCall(clients.channel, "notifyStart", { ticket, taskRunId: "r", engine: "e" }, { timeoutMs: 5000 }),
    close: async () => {
      clients.close();
      child.kill();
    },
  };
}

/** The no-op plugin through the SDK's host, and a call to it. */
async function sdk() {
  const channel = await connectChannel({ command: process.execPath, args: [plugin], logger: silentLogger });
  return {
    name: "SDK plugin (connectChannel)",
    pid: channel.pid,
    call: () => channel.notifyStart(ticket, { engine: "e", taskRunId: "r" }),
    close: () => channel.close(),
  };
}

const fmt = (n, d = 3) => n.toFixed(d);
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model}, node ${process.version}; load average ${load()} at start`,
);
let pass = true;
if (PART !== "cold") {
  console.log(
    `method: ${WARMUP} warm-up calls each, then ${ROUNDS} alternating rounds of: ${SEQUENTIAL} sequential NotifyStart calls for latency, then ${CONCURRENCY} concurrent callers for ${THROUGHPUT_MS} ms for throughput; both over a Unix socket to a separate process; medians of the rounds\n`,
  );
  const subjects = [await bare(), await sdk()];
  let results;
  try {
    results = await callRounds(subjects, {
      warmup: WARMUP,
      calls: SEQUENTIAL,
      concurrency: CONCURRENCY,
      durationMs: THROUGHPUT_MS,
      rounds: ROUNDS,
    });
  } finally {
    for (const s of subjects) await s.close();
  }
  const [baseline, ours] = results;
  for (const r of results) {
    console.log(
      `${r.name.padEnd(30)} p50 ${fmt(r.p50)} ms   p99 ${fmt(r.p99)} ms   ${Math.round(r.perSecond)} calls/s   (rounds: ${r.rounds.map((x) => Math.round(x.perSecond)).join(", ")} calls/s)   server CPU ${fmt(r.serverCpuUs, 1)} µs/call (rounds: ${r.rounds.map((x) => fmt(x.serverCpuUs, 0)).join(", ")})`,
    );
  }
  const ratios = ours.rounds.map((x, i) => x.perSecond / baseline.rounds[i].perSecond);
  const ratio = median(ratios);
  const p99Ratio = ours.p99 / baseline.p99;
  console.log(
    `\nthroughput SDK/bare, median of the rounds' ratios: ${fmt(ratio, 3)} (${ratios.map((r) => fmt(r, 3)).join(", ")}; target ≥ 0.95: ${ratio >= 0.95 ? "met" : "missed"})`,
  );
  console.log(
    `p99: ${fmt(ours.p99)} ms = ${fmt(p99Ratio, 2)} × bare's ${fmt(baseline.p99)} ms (target ≤ 1.20 ×: ${p99Ratio <= 1.2 ? "met" : "missed"})`,
  );
  console.log(`load average ${load()} after the calls`);
  pass = ratio >= 0.95 && p99Ratio <= 1.2;
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
