import { fileURLToPath } from "node:url";
import { connectChannel, type RemoteChannel } from "@errand/channel-sdk/host";
import { captureLogger, fixtures } from "@errand/channel-sdk/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { until } from "../../../test/support/until.js";
import { chatBCoverage } from "./coverage.js";
import { type FakeDiscord, startFakeDiscord } from "./fake-discord.js";

const BIN = fileURLToPath(new URL("../bin/errand-channel-chat-b.js", import.meta.url));
const RUNS = 40;
const ids = Array.from({ length: RUNS }, (_, i) => String(2001 + i));
const ticket = (id: string) => ({
  ...fixtures.tickets.basic,
  id,
  title: `Run ${id}`,
  externalUrl: `https://tracker.example.com/issues/${id}`,
});

let fake: FakeDiscord;
let channel: RemoteChannel;
beforeEach(async () => {
  // The webhook's usual rate: 5 requests per 2 s, 429 above it.
  fake = await startFakeDiscord({ limit: 5, windowMs: 2000 });
  const url = fake.webhookUrl("111");
  channel = await connectChannel({
    command: process.execPath,
    args: [BIN],
    config: { webhook_url_secret: "hook" },
    secrets: { hook: url },
    logger: captureLogger({ secrets: [url] }),
  });
});
afterEach(async () => {
  await channel.close();
  await fake.close();
});

/** Runs the calls at once, each with the interface's 5 s deadline; resolves with the slowest call's time. */
async function fire(calls: Array<() => Promise<unknown>>): Promise<number> {
  const times = await Promise.all(
    calls.map(async (call) => {
      const started = performance.now();
      await call();
      return performance.now() - started;
    }),
  );
  return Math.max(...times);
}

const bodies = () => fake.accepted.map((m) => m.body);

describe("chat_b under a burst far above the webhook's rate (plugin process)", () => {
  it("covers every start and completion in digests, with coalesced progress, no failed call and no 429", async () => {
    const slowest: number[] = [];
    const results = [fixtures.results.success, fixtures.results.failure];
    slowest.push(
      await fire(ids.map((id) => () => channel.notifyStart(ticket(id), { engine: "codex", taskRunId: `run-${id}` }))),
    );
    slowest.push(
      await fire(
        ids.flatMap((id) =>
          [1, 2, 3].map((step) => () => channel.notify(`step ${step}`, ticket(id), { taskRunId: `run-${id}` })),
        ),
      ),
    );
    slowest.push(
      await fire(
        ids.map((id, i) => () => channel.notifyComplete(ticket(id), results[i % 2]!, { taskRunId: `run-${id}` })),
      ),
    );
    await until(
      () => chatBCoverage(bodies()).completes.size === RUNS && chatBCoverage(bodies()).starts.size === RUNS,
      "every start and completion",
      15_000,
    );

    const coverage = chatBCoverage(bodies());
    expect([...coverage.starts].sort()).toEqual(ids);
    expect([...coverage.completes].sort()).toEqual(ids);
    expect(coverage.seen.filter((s) => !s.startsWith("progress"))).toHaveLength(2 * RUNS);
    expect(fake.accepted.length).toBeLessThanOrEqual(10);
    expect(coverage.seen.filter((s) => s.startsWith("progress")).length).toBeLessThanOrEqual(RUNS + 1);
    expect(fake.rateLimited).toBe(0);
    expect(fake.requests.every((r) => r.status === 200)).toBe(true);
    expect(Math.max(...slowest)).toBeLessThan(5000);
  });
});
