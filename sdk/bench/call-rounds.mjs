// Latency and throughput of two call paths (bare grpc-js, the SDK) in
// alternating rounds over connections opened once, so a change of
// background load hits both sides alike; medians of the rounds.

import { readFileSync } from "node:fs";

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (ns) => Number(ns) / 1e6;
export const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

async function latency(call, calls) {
  const latencies = [];
  for (let i = 0; i < calls; i++) {
    const t = process.hrtime.bigint();
    await call();
    latencies.push(ms(process.hrtime.bigint() - t));
  }
  latencies.sort((a, b) => a - b);
  return { p50: pct(latencies, 50), p99: pct(latencies, 99) };
}

/** CPU time (user + system) of process `pid` so far, in µs, from /proc; undefined where there is none (not Linux). */
function cpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // clock ticks of 10 ms (USER_HZ)
  } catch {
    return undefined;
  }
}

async function throughput(call, concurrency, durationMs) {
  let done = 0;
  const until = Date.now() + durationMs;
  const worker = async () => {
    while (Date.now() < until) {
      await call();
      done++;
    }
  };
  const t = Date.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / ((Date.now() - t) / 1000);
}

/**
 * Warms up each of `subjects` ({ name, call, pid: the server's process }), then runs `rounds` rounds;
 * each round measures every subject in turn (sequential calls for p50/p99,
 * then `concurrency` callers for `durationMs`, with the server's CPU per
 * call), the order swapped every round. Returns each subject's rounds and medians.
 */
export async function callRounds(subjects, { warmup, calls, concurrency, durationMs, rounds }) {
  for (const s of subjects) for (let i = 0; i < warmup; i++) await s.call(); // JIT and connection
  const results = subjects.map((s) => ({ name: s.name, rounds: [] }));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? subjects.map((_, i) => i) : subjects.map((_, i) => subjects.length - 1 - i);
    for (const i of order) {
      const { p50, p99 } = await latency(subjects[i].call, calls);
      const before = cpuMicros(subjects[i].pid);
      const perSecond = await throughput(subjects[i].call, concurrency, durationMs);
      // The server's CPU per call in the throughput phase: what its side costs, less moved by the load than calls/s.
      const serverCpuUs = (cpuMicros(subjects[i].pid) - before) / ((perSecond * durationMs) / 1000);
      results[i].rounds.push({ p50, p99, perSecond, serverCpuUs });
    }
  }
  for (const r of results) {
    for (const key of ["p50", "p99", "perSecond", "serverCpuUs"]) r[key] = median(r.rounds.map((x) => x[key]));
  }
  return results;
}
