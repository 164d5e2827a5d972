import { spawnSync } from "node:child_process";
import { hostname, userInfo } from "node:os";
import { resolve } from "node:path";
import { type Sink, startSink } from "@errand/channel-sdk/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  createHarness,
  eventually,
  finished,
  type Harness,
  type InProcess,
  postTicket,
  runsOf,
  startInProcess,
  ticketBody,
} from "./harness.js";

// The linked bin (build first): decisions come from another process, as an operator's do.
const BIN = resolve(import.meta.dirname, "../../../node_modules/.bin/errand");

const open: Array<{ close(): Promise<void> | void }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** Every ticket waits for approval; the fast engine; every event POSTed to a sink. */
async function setUp(): Promise<{ h: Harness; s: Sink }> {
  const s = await startSink();
  open.push(s);
  const h = createHarness({
    engine: "ok.sh",
    guardrails: "  require_approval: { always: true }\n",
    extra: `notifications:\n  channels:\n    - backend: webhook_post\n      config: { url: "${s.url}/hook" }\n`,
  });
  return { h, s };
}

async function start(h: Harness, timeoutMs?: number): Promise<InProcess> {
  const c = await startInProcess(h, (config) => {
    if (timeoutMs !== undefined) config.guardrails.approvalTimeoutMs = timeoutMs;
  });
  open.push({ close: () => c.stop() });
  return c;
}

function errand(h: Harness, ...args: string[]) {
  const r = spawnSync(BIN, [...args, "--config", h.configFile], { encoding: "utf8", timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Posts a ticket and waits for its run to be recorded AwaitingApproval. */
async function awaiting(c: InProcess): Promise<{ ticketId: string; runId: string }> {
  const t = ticketBody();
  expect((await postTicket(c.webhookPort, t.body)).status).toBe(200);
  const [run] = await runsOf(c.controller.store, t.id);
  expect(run?.state).toBe("AwaitingApproval");
  return { ticketId: t.id, runId: run?.id ?? "" };
}

const events = (s: Sink, runId: string) =>
  s.requests
    .map((r) => r.json as { event: string; task_run_id: string; text?: string; result?: Record<string, unknown> })
    .filter((j) => j.task_run_id === runId);

describe("approvals through the CLI", () => {
  it("holds the run, tells the channels how to approve, and runs it once approved with errand runs approve", async () => {
    const { h, s } = await setUp();
    const c = await start(h);
    const { ticketId, runId } = await awaiting(c);
    const notice = await eventually("the awaiting-approval notice", () =>
      events(s, runId).find((e) => e.event === "notify"),
    );
    expect(notice.text).toContain(`/console/runs/${runId}`);
    expect(notice.text).toContain(`errand runs approve ${runId}`);
    expect(h.executions()).toEqual([]);

    const metrics = await (await fetch(`http://127.0.0.1:${c.controller.ops.address?.port}/metrics`)).text();
    expect(metrics).toMatch(/^errand_runs\{state="AwaitingApproval"\} 1$/m);

    const listed = errand(h, "runs", "--state", "awaitingapproval", "--json");
    expect(listed.status).toBe(0);
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((r) => r.id)).toEqual([runId]);

    expect(errand(h, "runs", "approve", runId, "--reason", "reviewed")).toEqual({
      status: 0,
      stdout: `${runId} approved: queued\n`,
      stderr: "",
    });
    expect(await finished(c.controller.store, ticketId)).toMatchObject({ id: runId, state: "Succeeded" });
    expect(h.executions()).toEqual([runId]);
    const shown = errand(h, "runs", "show", runId);
    expect(shown.stdout).toContain(`approved by cli ${userInfo().username} from ${hostname()}: reviewed`);
    expect(shown.stdout).toContain(`(by cli ${userInfo().username} from ${hostname()})`);

    const again = errand(h, "runs", "approve", runId);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`cannot approve ${runId}: run ${runId} is Succeeded, not AwaitingApproval`);
  });

  it("links the console's own port when console.port gives it one", async () => {
    const { h, s } = await setUp();
    const c = await startInProcess(h, (config) => {
      config.console.port = 0;
    });
    open.push({ close: () => c.stop() });
    const { runId } = await awaiting(c);
    const notice = await eventually("the awaiting-approval notice", () =>
      events(s, runId).find((e) => e.event === "notify"),
    );
    const port = c.controller.consoleServer?.address?.port;
    expect(port).toBeGreaterThan(0);
    expect(port).not.toBe(c.controller.ops.address?.port);
    expect(notice.text).toContain(`http://127.0.0.1:${port}/console/runs/${runId}`);
  });

  it("names no console in the notice when the console is off, only the commands", async () => {
    const { h, s } = await setUp();
    const c = await startInProcess(h, (config) => {
      config.console.enabled = false;
    });
    open.push({ close: () => c.stop() });
    const { runId } = await awaiting(c);
    const notice = await eventually("the awaiting-approval notice", () =>
      events(s, runId).find((e) => e.event === "notify"),
    );
    expect(notice.text).not.toContain("console");
    expect(notice.text).toContain(`errand runs approve ${runId}`);
  });

  it("rejects with the reason: the run is Refused, never runs, and the channels get its end once", async () => {
    const { h, s } = await setUp();
    const c = await start(h);
    const { runId } = await awaiting(c);
    const rejected = errand(h, "runs", "reject", runId, "--reason", "not now", "--json");
    expect(rejected.status).toBe(0);
    expect(JSON.parse(rejected.stdout)).toMatchObject({ kind: "decided", run: { id: runId, state: "Refused" } });
    const end = await eventually("the end of the rejected run", () =>
      events(s, runId).find((e) => e.event === "complete"),
    );
    expect(end.result).toMatchObject({ success: false, failure_reason: expect.stringContaining("not now") });
    await new Promise((r) => setTimeout(r, 2500));
    expect(events(s, runId).filter((e) => e.event === "complete")).toHaveLength(1);
    expect(h.executions()).toEqual([]);
  });

  it("names an unknown run and refuses a blank id before opening the store", async () => {
    const { h } = await setUp();
    const c = await start(h);
    await c.stop();
    const unknown = errand(h, "runs", "reject", "run_00000000000000000000000000");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("no run with id run_00000000000000000000000000");
    expect(errand(h, "runs", "approve", " ").status).not.toBe(0);
  });

  it("keeps a run AwaitingApproval across a restart, not announced again; the next controller runs it once approved", async () => {
    const { h, s } = await setUp();
    const first = await start(h);
    const { ticketId, runId } = await awaiting(first);
    await eventually("the awaiting-approval notice", () => events(s, runId).find((e) => e.event === "notify"));
    await first.stop();
    const second = await start(h);
    // Several sweeps of the new controller: the store's mark says the wait was announced already.
    await new Promise((r) => setTimeout(r, 2500));
    expect((await second.controller.store.getRun(runId))?.state).toBe("AwaitingApproval");
    expect(events(s, runId).filter((e) => e.event === "notify")).toHaveLength(1);
    expect(errand(h, "runs", "approve", runId).status).toBe(0);
    expect(await finished(second.controller.store, ticketId)).toMatchObject({ id: runId, state: "Succeeded" });
  });

  it("refuses a run whose approval timed out, once, with the reason", async () => {
    const { h, s } = await setUp();
    const c = await start(h, 2000);
    const { ticketId, runId } = await awaiting(c);
    const run = await finished(c.controller.store, ticketId);
    expect(run).toMatchObject({ id: runId, state: "Refused", reason: "approval timed out after 2s" });
    await eventually("the end of the timed-out run", () => events(s, runId).find((e) => e.event === "complete"));
    await new Promise((r) => setTimeout(r, 2500));
    expect(events(s, runId).filter((e) => e.event === "complete")).toHaveLength(1);
    expect((await c.controller.store.transitions(runId)).map((t) => t.to)).toEqual(["AwaitingApproval", "Refused"]);
    expect(errand(h, "runs", "approve", runId).status).toBe(1);
  });
});
