// npm run bench:controller — tickets through the whole controller (signed
// webhook POST → 200 → store → loop → engine process → result stored) with
// an instant `command` engine, beside a bare node:child_process loop spawning the same
// engine (the limit; half before, half after, so a change of background load
// hits both), then latency at half the saturated rate, memory, restart time
// with the runs stored, and the cost of two notification channels beside
// their floor (the same calls without a notifier, notify-floor.mjs).
// Then the same throughput and latency on the PostgreSQL store.
// `--quick`: 1,000 tickets. `--store sqlite|postgres|both` (default both);
// `--store alternate`: the two stores alone, in alternating rounds (BENCH_ROUNDS, default 3);
// `--notifier`: the notifier's own cost alone, in alternating rounds (notifier-rounds.mjs).
// BENCH_KEEP=1 keeps the installations; BENCH_DIR says where they go (default
// tmpfs, see controller/bench-dir.mjs). BENCH_PG_STATEMENTS=1 prints the
// PostgreSQL statements and server processes per run; BENCH_PG_SETTINGS adds
// server settings; BENCH_PG_TRANSPORT=tcp connects over TCP on 127.0.0.1
// instead of the server's Unix socket. See docs/benchmarks.md.
import { rmSync } from "node:fs";
import { cpus } from "node:os";
import { bareLoop } from "./controller/bare-loop.mjs";
import { describeBenchDir } from "./controller/bench-dir.mjs";
import { channelsPhase } from "./controller/channels-phase.mjs";
import { stopController } from "./controller/controller-process.mjs";
import { createInstallation, ENGINE } from "./controller/installation.mjs";
import { alternateNotifier } from "./controller/notifier-rounds.mjs";
import { notifyFloor, printNotifierFloor } from "./controller/notify-floor.mjs";
import { latency, restarts, saturate, startParts } from "./controller/phases.mjs";
import { postgresPhases, printStoreComparison, storeOption } from "./controller/postgres-store.mjs";
import { commitOf, printReport } from "./controller/report.mjs";
import { load1, note } from "./controller/stats.mjs";
import { alternateStores } from "./controller/store-rounds.mjs";

const quick = process.argv.includes("--quick");
const TOTAL = Number(process.env.BENCH_TICKETS ?? (quick ? 1000 : 10000));
const CONCURRENCY = 16;
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? (quick ? 5 : 20));
const RESTARTS = Number(process.env.BENCH_RESTARTS ?? (quick ? 3 : 5));

const commit = commitOf();
const place = describeBenchDir();
note(
  `installations in ${place.dir} (${place.fsType}; a new file there: ${place.newFileUs.toFixed(0)} µs); BENCH_DIR chooses another place`,
);
const loads = [];
const phase = (name) => {
  loads.push(`${name} ${load1()}`);
  note(`— ${name} (load average ${load1()})`);
};
const stores = storeOption();
const onPostgres = () =>
  postgresPhases({ total: TOTAL, concurrency: CONCURRENCY, latencySeconds: LATENCY_SECONDS, phase });

if (process.argv.includes("--notifier")) {
  await alternateNotifier({
    total: TOTAL,
    concurrency: CONCURRENCY,
    rounds: Number(process.env.BENCH_ROUNDS ?? 3),
    floorCalls: quick ? 2000 : 6000,
  });
  console.log(`\nCommit ${commit}; load average at the end ${load1()}`);
  process.exit(0);
}

if (stores.alternate) {
  await alternateStores({
    total: TOTAL,
    concurrency: CONCURRENCY,
    rounds: Number(process.env.BENCH_ROUNDS ?? 3),
    latencySeconds: LATENCY_SECONDS,
  });
  console.log(`\nCommit ${commit}; load average at the end ${load1()}`);
  process.exit(0);
}

if (!stores.sqlite) {
  printStoreComparison({ postgres: await onPostgres() });
  console.log(
    `\nCommit ${commit}; ${TOTAL} tickets; max_concurrent_jobs ${CONCURRENCY}; load average by phase: ${loads.join(", ")}`,
  );
  process.exit(0);
}

phase("bare loop, first half");
const halves = [await bareLoop(ENGINE, Math.ceil(TOTAL / 2), CONCURRENCY)];

phase("controller, no channels");
const plain = await createInstallation({ concurrency: CONCURRENCY });
const sat = await saturate(plain, TOTAL, "controller");
await stopController(sat.running);

phase("bare loop, second half");
halves.push(await bareLoop(ENGINE, Math.floor(TOTAL / 2), CONCURRENCY));
const sum = (key) => halves.reduce((a, h) => a + h[key] * h.total, 0) / TOTAL;
const bare = {
  halves,
  perSecond: TOTAL / (halves[0].seconds + halves[1].seconds),
  cpuMsPerRun: sum("cpuMsPerRun"),
  engineCpuMsPerRun: sum("engineCpuMsPerRun"),
};
note(
  `bare loop: ${bare.perSecond.toFixed(1)}/s (${halves.map((h) => h.perSecond.toFixed(1)).join(", ")}); failed ${halves[0].failed + halves[1].failed}`,
);

phase("restarts");
const restart = await restarts(plain, RESTARTS);

phase("latency");
const lat = await latency(plain, restart.running, 0.5 * sat.result.perSecond, LATENCY_SECONDS, TOTAL);
await stopController(restart.running);
const parts = await startParts(plain);

phase("controller, two channels");
const {
  result: chResult,
  installation: withChannels,
  received,
  chat,
  pluginErrors,
} = await channelsPhase({
  total: TOTAL,
  concurrency: CONCURRENCY,
  label: "with channels",
});

phase("the notifier's floor");
const floor = await notifyFloor(quick ? 2000 : 6000);

const postgres = stores.postgres ? await onPostgres() : undefined;

printReport({
  place,
  commit,
  total: TOTAL,
  concurrency: CONCURRENCY,
  loads,
  bare,
  sat: sat.result,
  restart,
  lat,
  parts,
  ch: chResult,
  received,
  chat,
  pluginErrors,
});
printNotifierFloor({
  sat: sat.result,
  ch: chResult,
  floor,
  cores: cpus().length,
  chatMessagesPerRun: chat.messages / TOTAL,
});
printStoreComparison({ sqlite: { sat: sat.result, lat }, postgres });
if (process.env.BENCH_KEEP === "1") console.log(`\ninstallations kept: ${plain.dir} ${withChannels.dir}`);
else for (const i of [plain, withChannels]) rmSync(i.dir, { recursive: true, force: true });
