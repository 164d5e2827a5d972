/**
 * Burst benchmark of the built-in chat channels (`npm run bench:channels`).
 *
 * Pace: for each channel, a fake platform as strict as the real one, two real
 * plugin processes (the package bins, one per target: two channel IDs, two
 * webhooks, digests out of reach with `digest_threshold: 1000`), and a burst
 * of 20 notifications fired at once, alternating between the two targets.
 * Reports the 429s the fake answered (target 0) and the time from the burst
 * to the last arrival at the platform against the platform rate's
 * theoretical minimum (target within 10 %). Calls answer once their
 * notification is queued; the arrivals are what is timed.
 *
 * Digests (digest.bench.ts): a burst far above the platform's rate, reported
 * as messages sent, notifications covered and errors.
 *
 * Each plugin process first delivers one warm-up notification (the
 * controller keeps its plugins running, so the burst meets warm processes),
 * then the benchmark waits for the platform's window to reset before the
 * burst. The cold first call is reported separately.
 */
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { connectChannel, type RemoteChannel, silentLogger } from "@errand/channel-sdk/host";
import { fixtures } from "@errand/channel-sdk/testing";
import { expect, it } from "vitest";
import { until } from "../../test/support/until.js";
import { startFakeSlack } from "../chat-a/test/fake-slack.js";
import { startFakeDiscord } from "../chat-b/test/fake-discord.js";

const BURST = 20;
/** Bursts per channel (the machine may be busy; the median is the figure). */
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const bin = (name: string) =>
  fileURLToPath(
    new URL(`../${name.replace("_", "-")}/bin/errand-channel-${name.replace("_", "-")}.js`, import.meta.url),
  );

interface Result {
  channel: string;
  run: number;
  notifications: number;
  targets: number;
  delivered: number;
  rateLimited: number;
  /** From firing the burst to the last arrival at the platform. */
  totalMs: number;
  /** The platform rate's theoretical minimum for the burst. */
  minimumMs: number;
  overMinimum: string;
  withinTarget: boolean;
  /** First arrival to last arrival at the platform, during the burst. */
  platformSpanMs: number;
  /** A cold plugin process's first notification, call to answer. */
  coldFirstCallMs: number;
}

const results: Result[] = [];

/** Warms each process with one notification (timed: the cold call), then lets the platform's window reset. */
async function warmUp(channels: RemoteChannel[], resetMs: number): Promise<number> {
  const times = await Promise.all(
    channels.map(async (channel) => {
      const started = performance.now();
      await channel.notify("warm-up", fixtures.tickets.minimal, { timeoutMs: 10_000 });
      return performance.now() - started;
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, resetMs));
  return Math.max(...times);
}

/** Fires the burst; resolves with the time from firing it to the last arrival at the platform. */
async function burst(channels: RemoteChannel[], arrived: () => number): Promise<number> {
  const started = performance.now();
  const before = arrived();
  await Promise.all(
    Array.from({ length: BURST }, (_, i) =>
      channels[i % channels.length]!.notify(`burst message ${i}`, fixtures.tickets.basic, { taskRunId: `bench-${i}` }),
    ),
  );
  await until(() => arrived() - before >= BURST, `${BURST} arrivals`, 30_000);
  return performance.now() - started;
}

interface Measured {
  delivered: number;
  rateLimited: number;
  totalMs: number;
  minimumMs: number;
  arrivals: number[];
  coldFirstCallMs: number;
}

function record(channel: string, run: number, m: Measured) {
  const over = m.totalMs / m.minimumMs - 1;
  const result: Result = {
    channel,
    run,
    notifications: BURST,
    targets: 2,
    delivered: m.delivered,
    rateLimited: m.rateLimited,
    totalMs: Math.round(m.totalMs),
    minimumMs: m.minimumMs,
    overMinimum: `${(over * 100).toFixed(1)} %`,
    withinTarget: m.rateLimited === 0 && over <= 0.1,
    platformSpanMs: Math.max(...m.arrivals) - Math.min(...m.arrivals),
    coldFirstCallMs: Math.round(m.coldFirstCallMs),
  };
  results.push(result);
  console.log(JSON.stringify(result));
}

it("chat_a: 20 notifications over 2 channels at 1 message per second per channel", async () => {
  const fake = await startFakeSlack({ intervalMs: 1000 });
  const channels = await Promise.all(
    ["C0000000001", "C0000000002"].map((id) =>
      connectChannel({
        command: process.execPath,
        args: [bin("chat_a")],
        config: { channel_id: id, token_secret: "token", api_base_url: fake.apiBaseUrl, digest_threshold: 1000 },
        secrets: { token: "xoxb-test-token" },
        logger: silentLogger,
      }),
    ),
  );
  try {
    const coldFirstCallMs = await warmUp(channels, 1100);
    for (let run = 1; run <= RUNS; run++) {
      if (run > 1) await new Promise((resolve) => setTimeout(resolve, 1100));
      const before = { accepted: fake.accepted.length, limited: fake.rateLimited };
      const totalMs = await burst(channels, () => fake.accepted.length);
      const accepted = fake.accepted.slice(before.accepted);
      // 10 messages per channel, 1 s apart: the last leaves 9 s after the first.
      record("chat_a", run, {
        delivered: accepted.length,
        rateLimited: fake.rateLimited - before.limited,
        totalMs,
        minimumMs: (BURST / 2 - 1) * 1000,
        arrivals: accepted.map((m) => m.receivedAt),
        coldFirstCallMs,
      });
      expect(accepted).toHaveLength(BURST);
    }
  } finally {
    await Promise.all(channels.map((c) => c.close()));
    await fake.close();
  }
});

it("chat_b: 20 notifications over 2 webhooks at 5 requests per 2 s per webhook", async () => {
  const fake = await startFakeDiscord({ limit: 5, windowMs: 2000 });
  const channels = await Promise.all(
    ["111", "222"].map((id) =>
      connectChannel({
        command: process.execPath,
        args: [bin("chat_b")],
        config: { webhook_url_secret: "hook", digest_threshold: 1000 },
        secrets: { hook: fake.webhookUrl(id) },
        logger: silentLogger,
      }),
    ),
  );
  try {
    const coldFirstCallMs = await warmUp(channels, 2100);
    for (let run = 1; run <= RUNS; run++) {
      if (run > 1) await new Promise((resolve) => setTimeout(resolve, 2100));
      const before = { accepted: fake.accepted.length, limited: fake.rateLimited };
      const totalMs = await burst(channels, () => fake.accepted.length);
      const accepted = fake.accepted.slice(before.accepted);
      // 10 per webhook at 5 per 2 s: the second five may leave once the first window closes, 2 s in.
      record("chat_b", run, {
        delivered: accepted.length,
        rateLimited: fake.rateLimited - before.limited,
        totalMs,
        minimumMs: (Math.ceil(BURST / 2 / 5) - 1) * 2000,
        arrivals: accepted.map((m) => m.receivedAt),
        coldFirstCallMs,
      });
      expect(accepted).toHaveLength(BURST);
    }
  } finally {
    await Promise.all(channels.map((c) => c.close()));
    await fake.close();
  }
});

it("writes the results", () => {
  const machine = { nproc: cpus().length, cpu: cpus()[0]?.model ?? "unknown", node: process.version };
  const out = fileURLToPath(new URL("results.json", import.meta.url));
  const summary = ["chat_a", "chat_b"].map((channel) => {
    const runs = results.filter((r) => r.channel === channel);
    const sorted = [...runs].sort((a, b) => a.totalMs - b.totalMs);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    return {
      channel,
      runs: runs.length,
      rateLimited429s: runs.reduce((n, r) => n + r.rateLimited, 0),
      medianTotalMs: median.totalMs,
      worstTotalMs: sorted.at(-1)!.totalMs,
      minimumMs: median.minimumMs,
      medianOverMinimum: median.overMinimum,
      withinTarget: median.withinTarget && runs.every((r) => r.rateLimited === 0),
    };
  });
  writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), machine, summary, results }, null, 2)}\n`);
  console.table(results);
  console.table(summary);
});
