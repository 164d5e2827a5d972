// The peer: @octokit/webhooks' Node middleware verifying the same requests.
import { createServer } from "node:http";
import { createNodeMiddleware, Webhooks } from "@octokit/webhooks";

const webhooks = new Webhooks({ secret: process.env.BENCH_SECRET });
// biome-ignore lint/correctness/noUnusedVariables: the handler does a little work per ticket, as a real one would
let tickets = 0;
webhooks.on(["issues.opened", "issues.labeled"], async () => {
  tickets++;
});
const middleware = createNodeMiddleware(webhooks, {
  path: "/webhooks/github",
  log: { debug() {}, info() {}, warn() {}, error() {} },
});
const server = createServer(middleware);
server.listen(0, "127.0.0.1", () => process.stdout.write(`ready ${server.address().port}\n`));
// Exit normally on SIGTERM so `--cpu-prof` can write its profile.
process.on("SIGTERM", () => process.exit(0));
