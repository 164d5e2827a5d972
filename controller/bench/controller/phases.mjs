// The phases of `npm run bench:controller`, each against an `errand run`
// process of its own (see controller.bench.mjs for the order and targets).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startController, stopController } from "./controller-process.mjs";
import { SECRET_ENV } from "./installation.mjs";
import {
  childPids,
  cpuSeconds,
  machineBusyMs,
  mainThreadMs,
  memoryMiB,
  note,
  participantsSplitMs,
  pct,
} from "./stats.mjs";
import { openStoreReader, waitFinished } from "./store-reader.mjs";
import { burst, createTicketClient, openLoop } from "./tickets.mjs";

const run = promisify(execFile);
/** POSTs in flight during a burst: the intake answers far faster than runs end, so this only has to keep it busy. */
const POSTERS = 16;

/** The installation's store, read from the bench: SQLite unless the installation brings its own reader (PostgreSQL). */
const openReader = (installation) => installation.openReader?.() ?? openStoreReader(installation.storePath);

/**
 * Starts a controller on a fresh installation, POSTs `total` tickets as fast
 * as it answers and waits until every run has finished. Throughput is runs
 * finished per second from the first POST to the last run's `finished_at`.
 * Leaves the controller running (the caller stops it).
 */
export async function saturate(installation, total, label) {
  const running = await startController(installation);
  const reader = await openReader(installation);
  const client = createTicketClient(installation.webhookPort, POSTERS);
  const cpuBefore = cpuSeconds(running.pid);
  const machineBefore = machineBusyMs();
  const participantsBefore = participantsSplitMs(running.pid);
  const threadsBefore = mainThreads(running.pid);
  const first = Date.now();
  const [bad] = await Promise.all([burst(client, "sat", total, POSTERS), waitFinished(reader, total, label)]);
  const { lastFinish } = await reader.window();
  const cpuAfter = cpuSeconds(running.pid);
  const machineMsPerRun = (machineBusyMs() - machineBefore) / total;
  const participantsAfter = participantsSplitMs(running.pid);
  const threadsAfter = mainThreads(running.pid);
  const participantsPerRun = Object.fromEntries(
    Object.keys(participantsAfter).map((k) => [k, (participantsAfter[k] - participantsBefore[k]) / total]),
  );
  const participantsMsPerRun = Object.values(participantsPerRun).reduce((a, v) => a + v, 0);
  const seconds = (lastFinish - first) / 1000;
  const result = {
    total,
    bad,
    seconds,
    perSecond: total / seconds,
    states: await reader.states(),
    memory: memoryMiB(running.pid),
    cpuMsPerRun: ((cpuAfter.self - cpuBefore.self) * 1000) / total,
    spawnerCpuMsPerRun: ((cpuAfter.helpers - cpuBefore.helpers) * 1000) / total,
    engineCpuMsPerRun: ((cpuAfter.children - cpuBefore.children) * 1000) / total,
    machineMsPerRun,
    participantsMsPerRun,
    participantsPerRun,
    mainThreadsPerRun: perRunDelta(threadsBefore, threadsAfter, total),
  };
  client.close();
  await reader.close();
  note(
    `${label}: ${total} runs in ${seconds.toFixed(1)} s = ${result.perSecond.toFixed(1)}/s; peak RSS ${result.memory.peak.toFixed(0)} MiB; states ${JSON.stringify(result.states)}`,
  );
  return { running, result };
}

/** The controller's and its spawner's main threads: ms on a CPU and waiting for one (see mainThreadMs). */
function mainThreads(pid) {
  const [spawner] = childPids(pid);
  return { controller: mainThreadMs(pid), spawner: spawner === undefined ? undefined : mainThreadMs(spawner) };
}

/** Per run between two {@link mainThreads} readings; a spawner that started during the phase counts from zero. */
function perRunDelta(before, after, total) {
  const delta = (b, a) =>
    a === undefined ? undefined : { run: (a.run - (b?.run ?? 0)) / total, wait: (a.wait - (b?.wait ?? 0)) / total };
  return { controller: delta(before.controller, after.controller), spawner: delta(before.spawner, after.spawner) };
}

/** Restarts the controller `times` times on its stored runs: spawn → first /readyz 200, ms. */
export async function restarts(installation, times) {
  const readyMs = [];
  for (let i = 0; i < times; i++) {
    const running = await startController(installation);
    readyMs.push(running.readyMs);
    note(`restart ${i + 1}/${times}: ready in ${running.readyMs.toFixed(0)} ms`);
    if (i === times - 1) return { readyMs, running };
    await stopController(running);
  }
}

/**
 * Open loop at `rate` tickets/s for `seconds` against a running controller:
 * the time from each 200 (client clock) to its run's Running transition
 * (the store's `at`), both in ms since the epoch on this machine.
 */
export async function latency(installation, running, rate, seconds, storedBefore) {
  const total = Math.max(1, Math.round(rate * seconds));
  const client = createTicketClient(installation.webhookPort, 64);
  const reader = await openReader(installation);
  note(`latency: ${total} tickets at ${rate.toFixed(1)}/s (open loop)`);
  const { answers } = await openLoop(client, "lat", rate, total);
  await waitFinished(reader, storedBefore + total, "latency");
  const runningAt = await reader.runningAt("lat");
  const delays = answers
    .filter((a) => a.status === 200)
    .map((a) => runningAt.get(a.id) - a.at)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const result = {
    total,
    rate,
    bad: answers.filter((a) => a.status !== 200).length,
    measured: delays.length,
    p50: pct(delays, 50),
    p99: pct(delays, 99),
    max: delays.at(-1),
    memory: memoryMiB(running.pid),
    stored: await reader.finished(),
  };
  client.close();
  await reader.close();
  note(
    `latency: 200 → Running p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms over ${result.measured} runs`,
  );
  return result;
}

/** The in-process parts of a start (restart-parts.mjs in a fresh Node process), and a bare `node -e 0` for scale. */
export async function startParts(installation) {
  const t = performance.now();
  await run(process.execPath, ["-e", "0"]);
  const nodeMs = performance.now() - t;
  const script = fileURLToPath(new URL("./restart-parts.mjs", import.meta.url));
  const { stdout } = await run(process.execPath, [script, installation.configFile], {
    cwd: installation.dir,
    env: { ...process.env, ...SECRET_ENV },
  });
  return { nodeMs, ...JSON.parse(stdout) };
}
