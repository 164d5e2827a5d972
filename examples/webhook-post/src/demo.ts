#!/usr/bin/env node
/**
 * The Quick start's main job, until the controller lands: launches this
 * example plugin as a real process (exactly as the controller will), points
 * it at an embedded local HTTP sink instead of a chat service (no
 * credentials, no network), sends a start, a progress and a complete
 * notification, and prints what arrives.
 */
import { fileURLToPath } from "node:url";
import { connectChannel, createLogger } from "@errand/channel-sdk/host";
import { fixtures, startSink } from "@errand/channel-sdk/testing";

const bin = fileURLToPath(new URL("./bin.js", import.meta.url));
const out = (line = "") => process.stdout.write(`${line}\n`);

const sink = await startSink();
out(`Embedded target listening on ${sink.url}/hook`);
const started = Date.now();
const channel = await connectChannel({
  command: process.execPath,
  args: [bin],
  config: { url_secret: "demo-webhook-url" },
  secrets: { "demo-webhook-url": `${sink.url}/hook` },
  logger: createLogger({ level: process.env.ERRAND_LOG_LEVEL ? undefined : "warn" }),
});
out(
  `Plugin ${channel.name} ${channel.version} (pid ${channel.pid}) ready in ${Date.now() - started} ms, interface v${channel.interfaceVersion}`,
);

const ticket = fixtures.tickets.basic;
const taskRunId = "demo-run-1";
try {
  await channel.notifyStart(ticket, { engine: "claude-code", taskRunId });
  await channel.notify("Tests are passing; opening a pull request", ticket, { taskRunId });
  await channel.notifyComplete(ticket, fixtures.results.success, { taskRunId });
  const requests = await sink.waitForRequests(3);
  out();
  for (const request of requests) {
    const body = request.json as { event: string; text: string };
    out(`${request.method} ${request.path}  event=${body.event}`);
    out(`  ${body.text}`);
  }
  out();
  out(
    "All three notifications arrived. Next: `npm test`, or write your own channel with `npx create-channel my-channel`.",
  );
} finally {
  await channel.close();
  await sink.close();
}
