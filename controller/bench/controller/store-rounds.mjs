// `--store alternate`: the two stores side by side in alternating rounds
// (SQLite, PostgreSQL over its Unix socket, PostgreSQL over TCP; then the
// reverse; ...), each round a fresh installation (and a
// fresh schema on one PostgreSQL server), so that a change of the machine's
// load hits both; medians of the rounds, then latency at half of each
// store's median rate. The default run measures PostgreSQL once, after
// minutes of the SQLite phases, when the load they left is still high.
import { rmSync } from "node:fs";
import { stopController } from "./controller-process.mjs";
import { createInstallation } from "./installation.mjs";
import { latency, saturate } from "./phases.mjs";
import { createPostgresInstallation, serverLabel, startBenchPostgres, TRANSPORTS } from "./postgres-store.mjs";
import { load1, median, note, treeTicksMs } from "./stats.mjs";

/** The figure the issue sets: PostgreSQL's throughput at least this share of SQLite's. */
const TARGET_RATIO = 0.7;

/** The stores compared: SQLite, and PostgreSQL over each transport. */
const STORES = ["sqlite", ...TRANSPORTS.map((t) => `postgres-${t}`)];
const transportOf = (store) => store.slice("postgres-".length);
const storeName = (store) => (store === "sqlite" ? "SQLite" : serverLabel(transportOf(store)));

/** Runs `rounds` alternating saturation rounds of `total` tickets per store, then latency; prints the comparison. */
export async function alternateStores({ total, concurrency, rounds, latencySeconds }) {
  const server = await startBenchPostgres();
  const results = Object.fromEntries(STORES.map((store) => [store, []]));
  try {
    for (let round = 1; round <= rounds; round++) {
      // Odd rounds in order, even rounds reversed: what a round leaves behind hits every store alike.
      for (const store of round % 2 === 1 ? STORES : [...STORES].reverse()) {
        const last = round === rounds;
        const load = load1();
        note(`— round ${round}, ${store} (load average ${load})`);
        const installation =
          store === "sqlite"
            ? await createInstallation({ concurrency })
            : await createPostgresInstallation(
                { concurrency },
                server.urls[transportOf(store)],
                `bench_${transportOf(store)}_${round}`,
              );
        const serverBefore = treeTicksMs(server.pid);
        const sat = await saturate(installation, total, `${store}, round ${round}`);
        const serverMsPerRun = store === "sqlite" ? undefined : (treeTicksMs(server.pid) - serverBefore) / total;
        const rate = 0.5 * median([...results[store].map((r) => r.perSecond), sat.result.perSecond]);
        const lat = last ? await latency(installation, sat.running, rate, latencySeconds, total) : undefined;
        await stopController(sat.running);
        if (process.env.BENCH_KEEP !== "1") rmSync(installation.dir, { recursive: true, force: true });
        results[store].push({ ...sat.result, serverMsPerRun, load, lat });
      }
    }
  } finally {
    await server.stop();
  }
  printAlternation(results, total);
}

function printAlternation(results, total) {
  const rates = (store) => results[store].map((r) => r.perSecond);
  const sqlite = median(rates("sqlite"));
  const f1 = (v) => v.toFixed(1);
  const f2 = (v) => v.toFixed(2);
  console.log(`\n| round | store | load | runs/s | CPU per run (ms) | main threads per run (ms on a CPU / waiting) |
|---|---|---|---:|---|---|`);
  results.sqlite.forEach((_, i) => {
    for (const store of STORES) {
      const r = results[store][i];
      const threads = r.mainThreadsPerRun;
      const t = (x) => (x === undefined ? "?" : `${f2(x.run)} / ${f2(x.wait)}`);
      console.log(
        `| ${i + 1} | ${store} | ${r.load} | ${f1(r.perSecond)} | controller ${f2(r.cpuMsPerRun)} + spawner ${f2(r.spawnerCpuMsPerRun)} + engine ${f2(r.engineCpuMsPerRun)}${r.serverMsPerRun === undefined ? "" : ` + server ${f2(r.serverMsPerRun)}`}; machine ${f2(r.machineMsPerRun)} | controller ${t(threads.controller)}, spawner ${t(threads.spawner)} |`,
      );
    }
  });
  const lat = (store) => results[store].at(-1).lat;
  const latency = (store) => `p50 ${lat(store).p50} ms, p99 ${lat(store).p99} ms`;
  console.log(`
${total} tickets per round, ${results.sqlite.length} alternating rounds per store; SQLite: median ${f1(sqlite)} runs/s, ${latency("sqlite")} (200 → Running at half its median rate, last round).
| store | throughput, median of the rounds | target ≥ ${TARGET_RATIO} × SQLite | 200 → Running at half the median rate, last round | target p99 < 50 ms |
|---|---:|---|---|---|`);
  for (const store of STORES.slice(1)) {
    const ratio = median(rates(store)) / sqlite;
    const p99 = lat(store).p99;
    console.log(
      `| ${storeName(store)} | ${f1(median(rates(store)))} runs/s = **${f2(ratio)}** × SQLite | ${ratio >= TARGET_RATIO ? "PASS" : "MISS"} | ${latency(store)} | ${p99 < 50 ? "PASS" : "MISS"} |`,
    );
  }
}
