// The full path: routing, HMAC check, parse, mapping, dedupe, metrics, a
// JSON log line per request (to stderr, which the bench discards) and an
// async ticket handler, wired as `errand webhook serve` wires them (buffered log writer included).
import { createLogger } from "@errand/channel-sdk";
import { createBufferedWriter, createWebhookServer, parseWebhookConfig } from "@errand/controller";

const secret = process.env.BENCH_SECRET;
const { config } = parseWebhookConfig({ webhook: { host: "127.0.0.1", port: 0, secrets: { codehost_a: secret } } }, { env: {}, baseDir: "." });
let tickets = 0;
const server = createWebhookServer({
  config,
  logger: createLogger({ fields: { component: "webhook" }, redact: () => [secret], write: createBufferedWriter() }),
  onTickets: async (batch) => {
    tickets += batch.length;
  },
});
const address = await server.start();
process.stdout.write(`ready ${address.port}\n`);
process.on("SIGTERM", async () => {
  await server.stop();
  process.stderr.write(`tickets ${tickets}\n`);
  process.exit(0);
});
