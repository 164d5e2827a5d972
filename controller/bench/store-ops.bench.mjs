// The SQLite store's operations one at a time, as the intake and the loop call
// them, on a file that already holds BENCH_STORED (10,000) tickets with runs:
// CPU time (user + system of this process) per operation, so that the cost of
// a webhook request (claim, accept with its delivery id) and of a run (claim, two
// transitions) can be set against the rest of the path. Linux or not, no
// server: `node controller/bench/store-ops.bench.mjs` after a build.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { payload } from "./lib/fixture.mjs";

const { createSqliteStore } = await import(new URL("../dist/store/sqlite/sqlite-store.js", import.meta.url).href);
const STORED = Number(process.env.BENCH_STORED ?? 10000);
const N = Number(process.env.BENCH_OPS ?? 3000);
const dir = mkdtempSync(join(tmpdir(), "errand-bench-store-"));
const store = await createSqliteStore({ path: join(dir, "errand.db") });

let seq = 0;
const ticket = () => {
  const id = String(++seq);
  return {
    id,
    title: "Bench",
    description: "",
    ticketType: "issue",
    repoUrl: "https://github.com/acme/shop",
    externalUrl: "",
    labels: [],
    source: "codehost_a",
    rawEvent: payload,
  };
};
const measure = async (name, count, op) => {
  const before = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) await op(i);
  const cpu = process.cpuUsage(before);
  const us = (cpu.user + cpu.system) / count;
  console.log(`| ${name} | ${us.toFixed(1)} | ${(((performance.now() - started) * 1000) / count).toFixed(1)} |`);
  return us;
};

for (let i = 0; i < STORED; i += 100) await store.acceptTickets(Array.from({ length: 100 }, ticket), "bench");
console.log(
  `\n${STORED} tickets (each with the 11.6 KB code host A event as rawEvent) stored before; ${N} operations each.\n`,
);
console.log("| operation | CPU µs per op | wall µs per op |\n|---|---:|---:|");
await measure("JSON.stringify of one ticket (what acceptTickets stores)", N, () => JSON.stringify(ticket()));
await measure("claimDelivery (new id)", N, (i) => store.claimDelivery(`codehost_a:d-${i}`, 86_400_000));
await measure("commitDelivery", N, (i) => store.commitDelivery(`codehost_a:d-${i}`, 86_400_000));
await measure("acceptTickets, batch of 1", N, () => store.acceptTickets([ticket()], "bench"));
const batchOf16 = await measure("acceptTickets, batch of 16 (per batch)", Math.ceil(N / 16), () =>
  store.acceptTickets(Array.from({ length: 16 }, ticket), "bench"),
);
console.log(`| … per ticket | ${(batchOf16 / 16).toFixed(1)} | |`);
// A webhook request's store work, 16 requests to a batch: at first each claimed its id in a transaction of its
// own and committed it with one more after the batch; now one transaction checks and marks the ids of the turn's
// deliveries and stores their tickets (Store.acceptDeliveries).
let key = 0;
const keys16 = () => Array.from({ length: 16 }, () => `codehost_a:r-${++key}`);
const tickets16 = () => Array.from({ length: 16 }, ticket);
const before = await measure(
  "16 requests: 16 claims, a batch of 16, 16 commitDelivery (per batch; at first)",
  Math.ceil(N / 16),
  async () => {
    const ids = keys16();
    for (const id of ids) await store.claimDelivery(id, 86_400_000);
    await store.acceptTickets(tickets16(), "bench");
    for (const id of ids) await store.commitDelivery(id, 86_400_000);
  },
);
const now = await measure(
  "16 requests: acceptDeliveries of 16, each id checked and marked (per batch; now)",
  Math.ceil(N / 16),
  async () => {
    const deliveries = keys16().map((id) => ({ tickets: [ticket()], delivery: { key: id, ttlMs: 86_400_000 } }));
    await store.acceptDeliveries(deliveries, "bench");
  },
);
console.log(`| … per request: at first / now | ${(before / 16).toFixed(1)} / ${(now / 16).toFixed(1)} | |`);
// As the loop does it: claim one run, start it, end it; the next claim then finds no claimed run ahead of it.
const loop = { claim: 0, running: 0, succeeded: 0 };
const timed = async (key, op) => {
  const before = process.cpuUsage();
  const value = await op();
  const cpu = process.cpuUsage(before);
  loop[key] += cpu.user + cpu.system;
  return value;
};
for (let i = 0; i < N; i++) {
  const [item] = await timed("claim", () => store.claimQueued("bench", 1, 300_000));
  const runId = item.run.id;
  await timed("running", () =>
    store.transition({
      runId,
      from: ["Queued"],
      to: "Running",
      reason: "started",
      patch: { backend: "local", logRef: "/tmp/x.log", attachment: { pid: 1 } },
    }),
  );
  const result = {
    success: true,
    summary: "ok",
    pullRequestUrl: "https://github.com/acme/shop/pull/1",
    failureReason: "",
  };
  await timed("succeeded", () =>
    store.transition({ runId, from: ["Running"], to: "Succeeded", reason: "done", patch: { result } }),
  );
}
console.log(`| claimQueued, 1 run (with its ticket) | ${(loop.claim / N).toFixed(1)} | |`);
console.log(`| transition Queued → Running (with patch) | ${(loop.running / N).toFixed(1)} | |`);
console.log(`| transition Running → Succeeded (with result) | ${(loop.succeeded / N).toFixed(1)} | |`);
await store.close();
rmSync(dir, { recursive: true, force: true });
