// The full path: routing, HMAC check, parse, mapping, dedupe, metrics, a
// JSON log line per request (to stderr, which the bench discards) and an
// async ticket handler, wired as `errand webhook serve` wires them (buffered log writer included).
// BENCH_CONTROLLER_DIST: another build's dist folder to compare against (cpu.bench.mjs's BENCH_VARIANTS).
// The webhook server is internal to the package (not in its entry point), so it is loaded from the build's files.
import { createLogger } from "@errand/channel-sdk/host";

const distDir = process.env.BENCH_CONTROLLER_DIST
  ? `${process.env.BENCH_CONTROLLER_DIST.replace(/\/$/, "")}/`
  : new URL("../../dist/", import.meta.url).pathname;
const dist = (path) => import(`${distDir}${path}`);
const { createWebhookServer } = await dist("webhook/index.js");
const { parseWebhookConfig } = await dist("config/index.js");
const { createBufferedWriter } = await dist("logging/index.js");
const secret = process.env.BENCH_SECRET;
const { config } = parseWebhookConfig(
  { webhook: { host: "127.0.0.1", port: 0, secrets: { codehost_a: secret } } },
  { env: {}, baseDir: "." },
);
const write = createBufferedWriter();
const logger = createLogger({ fields: { component: "webhook" }, secrets: [secret], write });
let tickets = 0;
const server = createWebhookServer({
  config,
  logger,
  onTickets: async (batch) => {
    tickets += batch.length;
  },
});
const address = await server.start();
process.stdout.write(`ready ${address.port}\n`);
process.on("SIGTERM", async () => {
  await server.stop();
  write.flush();
  process.stderr.write(`tickets ${tickets}\n`);
  process.exit(0);
});
