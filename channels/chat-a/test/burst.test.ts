import { fileURLToPath } from "node:url";
import { connectChannel, type RemoteChannel } from "@errand/channel-sdk/host";
import { captureLogger, fixtures } from "@errand/channel-sdk/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { until } from "../../../test/support/until.js";
import { chatACoverage } from "./coverage.js";
import { type FakeSlack, startFakeSlack } from "./fake-slack.js";
import { TOKEN } from "./helpers.js";

const BIN = fileURLToPath(new URL("../bin/errand-channel-chat-a.js", import.meta.url));
const RUNS = 30;
const ids = Array.from({ length: RUNS }, (_, i) => String(1001 + i));
const ticket = (id: string) => ({
  ...fixtures.tickets.basic,
  id,
  title: `Run ${id}`,
  externalUrl: `https://tracker.example.com/issues/${id}`,
});

let fake: FakeSlack;
let channel: RemoteChannel;
beforeEach(async () => {
  // The platform's real pace: one message a second per channel, 429 above it.
  fake = await startFakeSlack({ intervalMs: 1000 });
  channel = await connectChannel({
    command: process.execPath,
    args: [BIN],
    config: { channel_id: "C0000000001", token_secret: "chat-a-token", api_base_url: fake.apiBaseUrl },
    secrets: { "chat-a-token": TOKEN },
    logger: captureLogger({ secrets: [TOKEN] }),
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

describe("chat_a under a burst far above one message a second (plugin process, the platform's real pace)", () => {
  it("covers every start and completion in digests, with coalesced progress, no failed call and no 429", async () => {
    const slowest: number[] = [];
    slowest.push(
      await fire(
        ids.map((id) => () => channel.notifyStart(ticket(id), { engine: "claude-code", taskRunId: `run-${id}` })),
      ),
    );
    await until(() => chatACoverage(fake.accepted).starts.size === RUNS, "every start", 15_000);
    slowest.push(
      await fire(
        ids.flatMap((id) =>
          [1, 2, 3].map((step) => () => channel.notify(`step ${step}`, ticket(id), { taskRunId: `run-${id}` })),
        ),
      ),
    );
    await until(() => fake.requests.length >= 3, "the progress");
    const results = [fixtures.results.success, fixtures.results.failure];
    slowest.push(
      await fire(
        ids.map((id, i) => () => channel.notifyComplete(ticket(id), results[i % 2]!, { taskRunId: `run-${id}` })),
      ),
    );
    await until(() => chatACoverage(fake.accepted).completes.size === RUNS, "every completion", 15_000);

    const coverage = chatACoverage(fake.accepted);
    expect([...coverage.starts].sort()).toEqual(ids);
    expect([...coverage.completes].sort()).toEqual(ids);
    // Each notification shown once, in a handful of messages instead of 150.
    expect(coverage.seen.filter((s) => !s.startsWith("progress"))).toHaveLength(2 * RUNS);
    expect(fake.accepted.length).toBeLessThanOrEqual(10);
    expect(coverage.digests).toBeGreaterThanOrEqual(2);
    // Progress coalesced: at most one line per run, besides a first that went out at once, and never a stale one after its run's latest.
    const progress = coverage.seen.filter((s) => s.startsWith("progress"));
    expect(progress.length).toBeLessThanOrEqual(RUNS + 1);
    expect(progress.filter((s) => s.endsWith("step 1")).length).toBeLessThanOrEqual(1);
    expect(fake.rateLimited).toBe(0);
    expect(fake.requests.every((r) => r.status === 200)).toBe(true);
    // Every call answered (none failed at the 5 s deadline it was given).
    expect(Math.max(...slowest)).toBeLessThan(5000);
  });
});
