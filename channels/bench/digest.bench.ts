/**
 * Digest benchmark of the built-in chat channels (part of `npm run bench:channels`).
 *
 * For each channel: a fake platform as strict as the real one at its real
 * rate (chat A: 1 message per second per channel; chat B: 5 requests per 2 s
 * per webhook), one plugin process (the package bin) posting to one room with
 * the default `digest_threshold`, and a burst far above that rate: RUNS runs'
 * starts fired at once, then three progress messages per run, then their
 * completions (half succeed with a pull request, half fail), each call with
 * the interface's 5 s deadline. Reports messages sent, notifications covered
 * (read back from what the platform received) and errors (failed calls and
 * 429s). Target: 100 % of starts and completions covered, 0 errors, 0 × 429.
 */
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { connectChannel, type RemoteChannel, silentLogger } from "@errand/channel-sdk/host";
import { fixtures } from "@errand/channel-sdk/testing";
import { expect, it } from "vitest";
import { until } from "../../test/support/until.js";
import { chatACoverage } from "../chat-a/test/coverage.js";
import { startFakeSlack } from "../chat-a/test/fake-slack.js";
import { chatBCoverage } from "../chat-b/test/coverage.js";
import { startFakeDiscord } from "../chat-b/test/fake-discord.js";

const RUNS = Number(process.env.BENCH_DIGEST_RUNS ?? 500);
const ids = Array.from({ length: RUNS }, (_, i) => String(10_001 + i));
const ticket = (id: string) => ({
  ...fixtures.tickets.basic,
  id,
  title: `Bench run ${id}`,
  externalUrl: `https://tracker.example.com/issues/${id}`,
});
const bin = (name: string) => fileURLToPath(new URL(`../${name}/bin/errand-channel-${name}.js`, import.meta.url));
const results: Record<string, unknown>[] = [];

interface Calls {
  calls: number;
  failed: number;
  slowestMs: number;
  firstError?: string;
}

/** Fires the three waves at one channel; each call has the 5 s deadline. */
async function fireWaves(channel: RemoteChannel): Promise<Calls> {
  const tally: Calls = { calls: 0, failed: 0, slowestMs: 0 };
  const timed = async (call: () => Promise<unknown>) => {
    const started = performance.now();
    tally.calls++;
    try {
      await call();
    } catch (error) {
      tally.failed++;
      tally.firstError ??= (error as Error).message;
    }
    tally.slowestMs = Math.max(tally.slowestMs, performance.now() - started);
  };
  const outcomes = [fixtures.results.success, fixtures.results.failure];
  await Promise.all(
    ids.map((id) => timed(() => channel.notifyStart(ticket(id), { engine: "claude-code", taskRunId: `run-${id}` }))),
  );
  await Promise.all(
    ids.flatMap((id) =>
      [1, 2, 3].map((step) => timed(() => channel.notify(`step ${step} of 3`, ticket(id), { taskRunId: `run-${id}` }))),
    ),
  );
  await Promise.all(
    ids.map((id, i) => timed(() => channel.notifyComplete(ticket(id), outcomes[i % 2]!, { taskRunId: `run-${id}` }))),
  );
  return tally;
}

function record(
  channel: string,
  calls: Calls,
  coverage: { starts: Set<string>; completes: Set<string>; digests: number; seen: string[] },
  messages: number,
  rateLimited: number,
  coveredMs: number,
) {
  const result = {
    channel,
    runs: RUNS,
    calls: calls.calls,
    failedCalls: calls.failed,
    firstError: calls.firstError,
    slowestCallMs: Math.round(calls.slowestMs),
    rateLimited429s: rateLimited,
    messagesSent: messages,
    digests: coverage.digests,
    startsCovered: `${coverage.starts.size} of ${RUNS}`,
    completesCovered: `${coverage.completes.size} of ${RUNS}`,
    progressLines: coverage.seen.filter((s) => s.startsWith("progress")).length,
    allCoveredAfterMs: Math.round(coveredMs),
    withinTarget:
      calls.failed === 0 && rateLimited === 0 && coverage.starts.size === RUNS && coverage.completes.size === RUNS,
  };
  results.push(result);
  console.log(JSON.stringify(result));
  return result;
}

it(`chat_a: ${RUNS} runs (start, 3 progress, completion) into one channel at 1 message per second`, async () => {
  const fake = await startFakeSlack({ intervalMs: 1000 });
  const channel = await connectChannel({
    command: process.execPath,
    args: [bin("chat-a")],
    config: { channel_id: "C0000000001", token_secret: "token", api_base_url: fake.apiBaseUrl },
    secrets: { token: "xoxb-test-token" },
    logger: silentLogger,
  });
  try {
    const started = performance.now();
    const calls = await fireWaves(channel);
    const covered = () => chatACoverage(fake.accepted);
    await until(
      () => covered().starts.size === RUNS && covered().completes.size === RUNS,
      "every start and completion",
      180_000,
    );
    const result = record(
      "chat_a",
      calls,
      covered(),
      fake.accepted.length,
      fake.rateLimited,
      performance.now() - started,
    );
    expect(result.withinTarget).toBe(true);
  } finally {
    await channel.close();
    await fake.close();
  }
});

it(`chat_b: ${RUNS} runs (start, 3 progress, completion) into one webhook at 5 requests per 2 s`, async () => {
  const fake = await startFakeDiscord({ limit: 5, windowMs: 2000 });
  const url = fake.webhookUrl("111");
  const channel = await connectChannel({
    command: process.execPath,
    args: [bin("chat-b")],
    config: { webhook_url_secret: "hook" },
    secrets: { hook: url },
    logger: silentLogger,
  });
  try {
    const started = performance.now();
    const calls = await fireWaves(channel);
    const covered = () => chatBCoverage(fake.accepted.map((m) => m.body));
    await until(
      () => covered().starts.size === RUNS && covered().completes.size === RUNS,
      "every start and completion",
      180_000,
    );
    const result = record(
      "chat_b",
      calls,
      covered(),
      fake.accepted.length,
      fake.rateLimited,
      performance.now() - started,
    );
    expect(result.withinTarget).toBe(true);
  } finally {
    await channel.close();
    await fake.close();
  }
});

it("writes the results", () => {
  const machine = {
    nproc: cpus().length,
    cpu: cpus()[0]?.model ?? "unknown",
    node: process.version,
    loadAverage1m: loadavg()[0]?.toFixed(2),
  };
  writeFileSync(
    fileURLToPath(new URL("digest-results.json", import.meta.url)),
    `${JSON.stringify({ date: new Date().toISOString(), machine, results }, null, 2)}\n`,
  );
  console.table(results);
});
