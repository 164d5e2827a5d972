import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { type Sink, startSink } from "@errand/channel-sdk/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  createHarness,
  eventually,
  type Harness,
  type InProcess,
  postTicket,
  running,
  runsOf,
  startInProcess,
  ticketBody,
} from "./harness.js";

// The linked bin (build first): the cancel comes from another process, as an operator's does.
const BIN = resolve(import.meta.dirname, "../../../node_modules/.bin/errand");
const REASON = "cancelled with errand runs cancel";

const open: Array<{ close(): Promise<void> | void }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function sink(): Promise<Sink> {
  const s = await startSink();
  open.push(s);
  return s;
}

/** A slow engine, one slot (a second ticket stays Queued), every event POSTed to the sink. */
function harness(s: Sink): Harness {
  return createHarness({
    engine: "slow.sh",
    guardrails: "",
    extra: `notifications:
  channels:
    - backend: webhook_post
      config: { url: "${s.url}/hook" }
`,
  });
}

async function start(h: Harness): Promise<InProcess> {
  const c = await startInProcess(h, (config) => void (config.guardrails.maxConcurrentJobs = 1));
  open.push({ close: () => c.stop() });
  return c;
}

function cancel(h: Harness, runId: string): void {
  const r = spawnSync(BIN, ["runs", "cancel", runId, "--config", h.configFile], { encoding: "utf8", timeout: 20_000 });
  expect([r.status, r.stdout, r.stderr]).toEqual([0, `${runId} cancelled\n`, ""]);
}

/** The events (start, notify, complete) the sink received for one run, in order. */
function eventsOf(s: Sink, runId: string): Array<{ event: string; result?: Record<string, unknown> }> {
  return s.requests
    .map((r) => r.json as { event: string; task_run_id: string; result?: Record<string, unknown> })
    .filter((j) => j.task_run_id === runId);
}

/** Waits until the run's completion reached the sink, then long enough for a second one to come (the loop polls every second). */
async function onlyCompletion(s: Sink, runId: string) {
  await eventually(`the completion of ${runId}`, () =>
    eventsOf(s, runId).some((e) => e.event === "complete") ? true : undefined,
  );
  await new Promise((r) => setTimeout(r, 2500));
  return eventsOf(s, runId);
}

/** Posts two tickets: the first runs in the only slot, the second waits Queued. Returns the queued run's id. */
async function queueBehindASlowRun(c: InProcess): Promise<string> {
  const first = ticketBody();
  const second = ticketBody();
  expect((await postTicket(c.webhookPort, first.body)).status).toBe(200);
  await running(c.controller.store, first.id);
  expect((await postTicket(c.webhookPort, second.body)).status).toBe(200);
  const [queued] = await runsOf(c.controller.store, second.id);
  expect(queued?.state).toBe("Queued");
  return queued?.id ?? "";
}

describe("a Queued run cancelled with errand runs cancel", () => {
  it("is announced to the channels once, as a failure with the reason, and never as started", async () => {
    const s = await sink();
    const h = harness(s);
    const c = await start(h);
    const runId = await queueBehindASlowRun(c);
    cancel(h, runId);
    expect(await onlyCompletion(s, runId)).toEqual([
      {
        event: "complete",
        task_run_id: runId,
        text: expect.stringContaining(REASON),
        ticket: expect.any(Object),
        result: expect.objectContaining({ success: false, failure_reason: REASON }),
      },
    ]);
    expect((await c.controller.store.getRun(runId))?.state).toBe("Cancelled");
    expect(h.executions()).not.toContain(runId);
  });

  it("while no controller runs: the next controller announces it once; the one after that does not", async () => {
    const s = await sink();
    const h = harness(s);
    const first = await start(h);
    const runId = await queueBehindASlowRun(first);
    await first.stop();
    cancel(h, runId);
    expect(eventsOf(s, runId)).toEqual([]);
    const second = await start(h);
    expect((await onlyCompletion(s, runId)).map((e) => e.event)).toEqual(["complete"]);
    await second.stop();
    const third = await start(h);
    await new Promise((r) => setTimeout(r, 2500));
    expect(eventsOf(s, runId).map((e) => e.event)).toEqual(["complete"]);
    expect(third.logs.some((l) => l.includes(runId))).toBe(false);
  });
});
