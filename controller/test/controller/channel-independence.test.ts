import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { recordFile, TEST_CHANNEL } from "../notify/helpers/fixtures.js";
import { createHarness, eventually, finished, postTicket, startInProcess, ticketBody } from "./harness.js";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** A `notifications.channels` entry running the test plugin with `config`. */
function testPlugin(name: string, config: Record<string, unknown>): string {
  return `    - backend: test_channel
      name: ${name}
      command: ${JSON.stringify([process.execPath, TEST_CHANNEL])}
      config: ${JSON.stringify(config)}
`;
}

/** When the loop logged that the run started: it is Running and its engine exists. */
function announcedAt(logs: string[], runId: string): number {
  const line = logs
    .map((l) => JSON.parse(l) as Record<string, string>)
    .find((l) => l["@message"] === "run started" && l.run_id === runId);
  return Date.parse(line!["@timestamp"]!);
}

describe("a channel that hangs beside a healthy one", () => {
  it("the healthy one hears every event as it happens, and nothing after the completion", async () => {
    const healthy = recordFile();
    const h = createHarness({
      engine: "steps.sh",
      extra: `notifications:
  progress_per_minute: 60
  channels:
${testPlugin("stuck", { hang: true })}${testPlugin("healthy", { record: healthy.path })}`,
    });
    const c = await startInProcess(h);
    open.push({ close: () => c.stop() });
    const { id, body } = ticketBody();
    expect((await postTicket(c.webhookPort, body)).status).toBe(200);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Succeeded");
    const entries = () => healthy.entries() as Array<{ kind: string; at: number; message?: string }>;
    const complete = await eventually(
      "the completion on the healthy channel",
      () => entries().find((e) => e.kind === "notifyComplete"),
      20_000,
    );
    // Long enough for a held or queued progress line to show up late (one a second at this rate).
    await sleep(1_500);
    const got = entries();
    const start = got.find((e) => e.kind === "notifyStart");
    const progress = got.filter((e) => e.kind === "notify");

    // Running in the store comes before the engine exists (write-ahead); the loop announces the start once it does.
    expect(start!.at - announcedAt(c.logs, run.id)).toBeLessThan(1_000);
    // The engine prints its first step as it starts: it follows the start at once, not after the stuck channel's 5 s.
    expect(progress[0]!.at - start!.at).toBeLessThan(1_000);
    expect(complete.at - run.finishedAt!).toBeLessThan(1_000);
    expect(got.at(-1)).toEqual(complete);
    // Every step reached it (60 a minute lets them through), in order, each before the run ended.
    expect(progress.map((e) => e.message)).toEqual(["step 1", "step 2", "step 3", "step 4", "step 5"]);
    for (const e of progress) expect(e.at).toBeLessThanOrEqual(run.finishedAt!);
    // The stuck channel really was stuck: its start ran into the 5 s bound.
    const timedOut = /agent_plugin_calls_total\{plugin="stuck",operation="notify_start",outcome="timeout"\} 1/;
    await eventually(
      "the stuck channel's start timed out",
      async () => (timedOut.test(await c.controller.registry.metrics()) ? true : undefined),
      10_000,
    );
  }, 60_000);
});
