// The notifier's own CPU per run, without any channel's cost: the real
// notifier (lanes, bounded calls, metrics, logging, the progress gate) and
// the loop's observer dispatch, with two in-process channels whose calls
// answer at once. A run is started, 3 progress lines, finished; 16 runs at a
// time. Prints process.cpuUsage per run, median of BENCH_ROUNDS rounds.
//   node controller/bench/notifier-own.bench.mjs   (after npm run build -w controller)
import { loadavg } from "node:os";
import { createLogger } from "@errand/channel-sdk/host";
import { Registry } from "prom-client";

// BENCH_CONTROLLER_DIST: another build of the controller (a copy of dist/ inside controller/, for its node_modules).
const distDir = process.env.BENCH_CONTROLLER_DIST ?? new URL("../dist/", import.meta.url).pathname;
const dist = (path) => import(`${distDir}/${path}`);
const { BUILTIN_CHANNELS } = await dist("notify/builtin-channels.js");
const { createNotifier } = await dist("notify/create-notifier.js");
const { createObserverDispatch } = await dist("loop/observer-dispatch.js");

const RUNS = Number(process.env.BENCH_RUNS ?? 20000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONCURRENCY = 16;

/** A channel whose calls answer at once: the notifier's cost is all that is left. */
const noop = {
  name: "bench_noop",
  version: "1.0.0",
  notifyStart: async () => ({ deliveryId: "d" }),
  notify: async () => ({ deliveryId: "d" }),
  notifyComplete: async () => ({ deliveryId: "d" }),
};
const { defineChannel } = await import("@errand/channel-sdk");
const definition = defineChannel(noop);
const { loadChannel } = await import("@errand/channel-sdk/host");
BUILTIN_CHANNELS.bench_noop = {
  packageName: "bench",
  definition: async () => definition,
  load: async (options) => loadChannel(definition, options),
};

const entry = (label, index) => ({
  label,
  backend: "bench_noop",
  command: undefined,
  config: {},
  secretNames: ["token"],
  index,
});
const logger = createLogger({ write: () => {} });
const notifier = createNotifier({
  channels: [entry("one", 0), entry("two", 1)],
  secrets: { token: "bench-secret-token-value" },
  logger,
  registry: new Registry(),
});
await notifier.start();
const dispatch = createObserverDispatch({ observers: [notifier.observer], timeoutMs: 10000, logger });

// As the generic webhook makes it (see controller/tickets.mjs), raw event included.
const payload = {
  id: "T-1",
  title: "Bench ticket T-1",
  description: "Make the failing checkout test pass.",
  repo_url: "https://github.com/acme/shop",
  labels: ["bench"],
};
const ticket = {
  id: "T-1",
  title: payload.title,
  description: payload.description,
  ticketType: "",
  repoUrl: payload.repo_url,
  externalUrl: "",
  source: "generic",
  labels: ["bench"],
  rawEvent: payload,
};
async function oneRun(i) {
  const run = { id: `run-${i}` };
  await dispatch.targets.eager({ type: "started", run, ticket, engine: "bench" });
  for (let p = 0; p < 3; p++) await dispatch.targets.eager({ type: "progress", run, ticket, message: `step ${p}` });
  await dispatch.targets.eager({
    type: "finished",
    run,
    ticket,
    result: { success: true, summary: "done", pullRequestUrl: "", failureReason: "" },
  });
}
async function round(base) {
  let next = 0;
  const worker = async () => {
    while (next < RUNS) await oneRun(base + next++);
  };
  const before = process.cpuUsage();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / RUNS;
}
await round(-1e9); // warm-up
const perRun = [];
for (let r = 0; r < ROUNDS; r++) perRun.push(await round(r * RUNS));
perRun.sort((a, b) => a - b);
console.log(
  `notifier's own CPU per run (start, 3 progress, finished; 2 no-op channels; ${RUNS} runs × ${ROUNDS} rounds): median ${(perRun[ROUNDS >> 1] * 1000).toFixed(1)} µs (${perRun.map((v) => (v * 1000).toFixed(1)).join(", ")}); load average ${loadavg()[0].toFixed(2)}`,
);
await dispatch.close();
await notifier.close();
