// The controller's durable intake, wired as createController wires it: the
// webhook source over a real SQLite store (delivery ids deduplicated in the
// store, WAL, synchronous=NORMAL) and the batched sink (one transaction per
// event-loop turn; the 200 only after the commit), with a ticket and a Queued
// TaskRun written for every request. The loop is not started: this measures
// the intake, not the runs. Log lines as in errand.mjs (batched, to stderr).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "@errand/channel-sdk/host";
import { Registry } from "prom-client";

// BENCH_CONTROLLER_DIST: another build's dist folder to compare against (cpu.bench.mjs's BENCH_VARIANTS).
const distDir = process.env.BENCH_CONTROLLER_DIST
  ? `${process.env.BENCH_CONTROLLER_DIST.replace(/\/$/, "")}/`
  : new URL("../../dist/", import.meta.url).pathname;
const dist = (path) => import(`${distDir}${path}`);
const { createBufferedWriter } = await dist("logging/index.js");
const { parseWebhookConfig } = await dist("config/index.js");
const { createSqliteStore } = await dist("store/sqlite/sqlite-store.js");
const { createWebhookSource } = await dist("sources/webhook-source.js");
const { createBatchedSink } = await dist("intake/batched-sink.js");

const secret = process.env.BENCH_SECRET;
const dir = mkdtempSync(join(tmpdir(), "errand-bench-durable-"));
const { config } = parseWebhookConfig(
  { webhook: { host: "127.0.0.1", port: 0, secrets: { codehost_a: secret } } },
  { env: {}, baseDir: "." },
);
const write = createBufferedWriter();
const logger = createLogger({ fields: { component: "webhook" }, secrets: [secret], write });
const store = await createSqliteStore({ path: join(dir, "errand.db") });
let commits = 0;
const sink = createBatchedSink({ store, engine: "bench", onCommitted: () => commits++ });
const source = createWebhookSource({ config, store, logger, registry: new Registry() });
await source.start(sink);
process.stdout.write(`ready ${source.server.address.port}\n`);
process.on("SIGTERM", async () => {
  await source.stop();
  const queued = (await store.countRuns()).Queued;
  await store.close();
  write.flush();
  rmSync(dir, { recursive: true, force: true });
  process.stderr.write(`tickets ${queued} in ${commits} commits\n`);
  process.exit(0);
});
