// The full path: routing, HMAC check, parse, mapping, dedupe, metrics, a
// JSON log line per request (to stderr, which the bench discards) and an
// async ticket handler, wired as `errand webhook serve` wires them (buffered log writer included).
// BENCH_ERRAND_MODULE: another build of @errand/controller to compare against (a path to its dist/index.js).
import { createLogger } from "@errand/channel-sdk/host";

const controller = await import(process.env.BENCH_ERRAND_MODULE || "@errand/controller");
const { createBufferedWriter, createWebhookServer, parseWebhookConfig } = controller;
const secret = process.env.BENCH_SECRET;
const { config } = parseWebhookConfig({ webhook: { host: "127.0.0.1", port: 0, secrets: { codehost_a: secret } } }, { env: {}, baseDir: "." });
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
