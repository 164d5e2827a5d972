// Server CPU time per request (user and system, from /proc/<pid>/stat) under
// the bench load: less sensitive to other processes than req/s, so it is the
// figure to compare two builds by. Linux only.
//   node bench/cpu.bench.mjs                      bare, errand and the peer
//   BENCH_VARIANTS='{"before":{"BENCH_CONTROLLER_DIST":"/path/dist"},"after":{}}' node bench/cpu.bench.mjs
// BENCH_RATE=N offers a fixed N req/s instead of saturating; BENCH_LOADGEN=wrk uses wrk.
import { autocannonLoad, wrkLoad } from "./lib/loadgen.mjs";
import { cpuSplitMs, SERVERS, startServer, stopServer } from "./lib/servers.mjs";

const seconds = Number(process.env.BENCH_DURATION ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const rate = Number(process.env.BENCH_RATE ?? 0);
const load = process.env.BENCH_LOADGEN === "wrk" ? wrkLoad : (port, s) => autocannonLoad(port, s, rate);
const variants = process.env.BENCH_VARIANTS
  ? JSON.parse(process.env.BENCH_VARIANTS)
  : Object.fromEntries(SERVERS.map((s) => [s.name, { file: s.file }]));

const totals = {};
for (let round = 0; round < rounds; round++) {
  for (const [name, env] of Object.entries(variants)) {
    const { file = "errand.mjs", ...vars } = env;
    const saved = { ...process.env };
    Object.assign(process.env, vars);
    const { child, port } = await startServer(file);
    process.env = saved;
    try {
      await load(port, 2);
      const a = cpuSplitMs(child.pid);
      const r = await load(port, seconds);
      const b = cpuSplitMs(child.pid);
      const user = ((b.user - a.user) * 1000) / r.total;
      const system = ((b.system - a.system) * 1000) / r.total;
      (totals[name] ??= []).push(user + system);
      console.log(
        `${name.padEnd(20)} ${String(Math.round(r.rps)).padStart(6)} req/s  user ${user.toFixed(1).padStart(6)}  system ${system.toFixed(1).padStart(5)}  total ${(user + system).toFixed(1).padStart(6)} µs/req  p99 ${r.p99} ms  non-2xx ${r.non2xx} errors ${r.errors}`,
      );
    } finally {
      await stopServer(child);
    }
  }
}
for (const [name, values] of Object.entries(totals)) {
  const s = values.sort((x, y) => x - y);
  console.log(`${name.padEnd(20)} median ${s[Math.floor(s.length / 2)].toFixed(1)} µs/req over ${s.length} rounds`);
}
