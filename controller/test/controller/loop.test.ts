import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import {
  alive,
  createHarness,
  eventually,
  finished,
  type InProcess,
  postTicket,
  running,
  runsOf,
  startInProcess,
  ticketBody,
} from "./harness.js";

const started: InProcess[] = [];
afterEach(async () => {
  for (const c of started.splice(0)) await c.stop();
});
async function start(...args: Parameters<typeof startInProcess>): Promise<InProcess> {
  const c = await startInProcess(...args);
  started.push(c);
  return c;
}

describe("controller loop, in-process with real engine processes", () => {
  it("a signed ticket is stored, run by the engine and its result recorded with every transition", async () => {
    const h = createHarness({ engine: "ok.sh" });
    const c = await start(h);
    const { id, body } = ticketBody();
    const answer = await postTicket(c.webhookPort, body);
    expect(answer.status).toBe(200);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Succeeded");
    expect(run.result).toMatchObject({
      success: true,
      summary: "Fixed it.",
      pullRequestUrl: "https://github.com/acme/shop/pull/7",
      costUsd: 0.12,
    });
    expect(run.result?.tokenUsage).toEqual({ inputTokens: 1200, outputTokens: 300, cachedInputTokens: 0 });
    const steps = await c.controller.store.transitions(run.id);
    expect(steps.map((s) => [s.from, s.to])).toEqual([
      [undefined, "Queued"],
      ["Queued", "Running"],
      ["Running", "Succeeded"],
    ]);
    expect(steps.every((s) => s.at > 0 && s.reason.length > 0)).toBe(true);
    expect(h.executions()).toEqual([run.id]);
  });

  it("a redelivered ticket does not start a second run", async () => {
    const h = createHarness({ engine: "ok.sh" });
    const c = await start(h);
    const { id, body } = ticketBody();
    expect((await postTicket(c.webhookPort, body)).status).toBe(200);
    await finished(c.controller.store, id);
    expect((await postTicket(c.webhookPort, body)).status).toBe(200);
    expect((await postTicket(c.webhookPort, body, { "webhook-id": "msg_1" })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(await runsOf(c.controller.store, id)).toHaveLength(1);
    expect(h.executions()).toHaveLength(1);
  });

  it("allowed_repos refuses a ticket for another repository before anything runs, with the reason", async () => {
    const h = createHarness({ engine: "ok.sh", guardrails: '  allowed_repos: ["github.com/acme/*"]' });
    const c = await start(h);
    const { id, body } = ticketBody({ repo_url: "https://github.com/evil/repo" });
    expect((await postTicket(c.webhookPort, body)).status).toBe(200);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Refused");
    expect(run.reason).toMatch(/allowed_repos.*github\.com\/evil\/repo/);
    expect(run.result?.success).toBe(false);
    expect(h.executions()).toEqual([]);
    const ok = ticketBody();
    await postTicket(c.webhookPort, ok.body);
    expect((await finished(c.controller.store, ok.id)).state).toBe("Succeeded");
  });

  it("allowed_repos refuses a repo_url whose real host git reads otherwise, and the run record says why", async () => {
    const h = createHarness({ engine: "ok.sh", guardrails: '  allowed_repos: ["github.com/acme/*"]' });
    const c = await start(h);
    // Read from the @ on, it is an allowed github.com URL; git (and URL) contact evil.example, the ? ending the host.
    const { id, body } = ticketBody({ repo_url: "https://evil.example?@github.com/acme/shop" });
    expect((await postTicket(c.webhookPort, body)).status).toBe(200);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Refused");
    expect(run.reason).toBe(
      'refused by guardrails.allowed_repos: repo_url "https://evil.example?@github.com/acme/shop" contains ? or #: a repository URL has no query or fragment, and before an @ they hide the host git contacts; remove them',
    );
    expect(run.result?.failureReason).toBe(run.reason);
    expect(h.executions()).toEqual([]);
  });

  it("errand_run_duration_seconds counts runs that ran, not Refused ones that never became Running", async () => {
    const h = createHarness({ engine: "ok.sh", guardrails: '  allowed_repos: ["github.com/acme/*"]' });
    const c = await start(h);
    const refused = ticketBody({ repo_url: "https://github.com/evil/repo" });
    await postTicket(c.webhookPort, refused.body);
    expect((await finished(c.controller.store, refused.id)).state).toBe("Refused");
    const ok = ticketBody();
    await postTicket(c.webhookPort, ok.body);
    expect((await finished(c.controller.store, ok.id)).state).toBe("Succeeded");
    const durations = (await c.controller.registry.getSingleMetric("errand_run_duration_seconds")?.get())?.values ?? [];
    const counts = durations
      .filter((v) => (v as { metricName?: string }).metricName === "errand_run_duration_seconds_count")
      .map((v) => [v.labels.state, v.value]);
    expect(counts).toEqual([["Succeeded", 1]]);
  });

  it("max_job_duration stops the run as TimedOut and kills its whole process group", async () => {
    const h = createHarness({ engine: "slow.sh" });
    const c = await start(h, (config) => {
      config.guardrails.maxJobDurationMinutes = 1.5 / 60;
    });
    const { id, body } = ticketBody();
    await postTicket(c.webhookPort, body);
    const r = await running(c.controller.store, id);
    const child = Number(
      await eventually("the grandchild's pid", () => {
        try {
          return readFileSync(`${h.pidDir}/${r.id}.child`, "utf8");
        } catch {
          return undefined;
        }
      }),
    );
    expect(alive(child)).toBe(true);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("TimedOut");
    expect(run.reason).toMatch(/timed out after .* min/);
    await eventually("the grandchild to die", () => (alive(child) ? undefined : true), 15_000);
  });

  it("max_cost_per_job stops a run as soon as its reported cost passes the limit", async () => {
    const h = createHarness({ engine: "cost.sh", guardrails: "  max_cost_per_job: 1.00" });
    const c = await start(h);
    const { id, body } = ticketBody();
    await postTicket(c.webhookPort, body);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Failed");
    expect(run.reason).toMatch(/cost \$3\.10 passed guardrails\.max_cost_per_job \(\$1\.00\)/);
    const child = Number(readFileSync(`${h.pidDir}/${run.id}.child`, "utf8"));
    await eventually("the cost fixture's child to die", () => (alive(child) ? undefined : true), 15_000);
  });

  it("a finished run whose final cost passes the limit is marked", async () => {
    const h = createHarness({ engine: "expensive.sh", guardrails: "  max_cost_per_job: 1.00" });
    const c = await start(h);
    const { id, body } = ticketBody();
    await postTicket(c.webhookPort, body);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Succeeded");
    expect(run.reason).toMatch(/over the cost limit: cost \$4\.50 passed/);
  });

  it("cancel stops a running run and its process group; the run is Cancelled", async () => {
    const h = createHarness({ engine: "slow.sh" });
    const c = await start(h);
    const { id, body } = ticketBody();
    await postTicket(c.webhookPort, body);
    const r = await running(c.controller.store, id);
    const main = Number(
      await eventually("pid", () => {
        try {
          return readFileSync(`${h.pidDir}/${r.id}.main`, "utf8");
        } catch {
          return undefined;
        }
      }),
    );
    const child = Number(readFileSync(`${h.pidDir}/${r.id}.child`, "utf8"));
    const other = await h.openStore();
    try {
      const requested = await other.requestCancel(r.id, "cancelled by a test", {
        kind: "cli",
        name: "dave",
        from: "h2",
      });
      expect(requested.cancelRequestedAt).toBeDefined();
    } finally {
      await other.close();
    }
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Cancelled");
    // The loop made the Cancelled transition (another process asked): it names who asked, from where.
    expect((await c.controller.store.transitions(r.id)).at(-1)).toMatchObject({
      to: "Cancelled",
      reason: "cancelled by a test",
      actor: { kind: "cli", name: "dave", from: "h2" },
    });
    await eventually("the group to die", () => (alive(main) || alive(child) ? undefined : true), 15_000);
  });

  it.each([
    ["crash.sh", /exit(ed)? (with )?(code )?3|segfault/i],
    ["bad-result.sh", /success/],
  ])("%s: the run fails with a clear reason and the loop goes on", async (fixture, reason) => {
    const h = createHarness({ engine: fixture });
    const c = await start(h);
    const first = ticketBody();
    await postTicket(c.webhookPort, first.body);
    const run = await finished(c.controller.store, first.id);
    expect(run.state).toBe("Failed");
    expect(run.reason).toMatch(reason);
    const second = ticketBody();
    await postTicket(c.webhookPort, second.body);
    expect((await finished(c.controller.store, second.id)).state).toBe("Failed");
    expect(h.executions()).toHaveLength(2);
  });

  it("a missing engine binary fails the run naming the command, and the loop goes on", async () => {
    const h = createHarness({ engine: ["/nonexistent/bin/agent", "--flag"] });
    const c = await start(h);
    const { id, body } = ticketBody();
    await postTicket(c.webhookPort, body);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Failed");
    expect(run.reason).toContain("/nonexistent/bin/agent");
    const transitions = await c.controller.store.transitions(run.id);
    // Running is recorded before the engine is started (write-ahead), so a start that fails ends a Running run.
    expect(transitions.map((t) => t.to)).toEqual(["Queued", "Running", "Failed"]);
  });

  it("runs at most max_concurrent_jobs at once", async () => {
    const h = createHarness({ engine: "slow.sh", guardrails: "" });
    const c = await start(h, (config) => {
      config.guardrails.maxConcurrentJobs = 2;
    });
    const ids = [ticketBody(), ticketBody(), ticketBody()];
    for (const t of ids) expect((await postTicket(c.webhookPort, t.body)).status).toBe(200);
    await eventually("two running", async () =>
      (await c.controller.store.countRuns()).Running === 2 ? true : undefined,
    );
    await new Promise((r) => setTimeout(r, 300));
    const counts = await c.controller.store.countRuns();
    expect(counts.Running).toBe(2);
    expect(counts.Queued).toBe(1);
  });

  it("SIGTERM-style stop lets runs finish within the grace period, then stops the rest as Failed", async () => {
    const h = createHarness({ engine: "slow.sh" });
    const c = await start(h);
    const { id, body } = ticketBody();
    await postTicket(c.webhookPort, body);
    await running(c.controller.store, id);
    const store = await h.openStore();
    try {
      await c.stop();
      const [run] = await runsOf(store, id);
      expect(run?.state).toBe("Failed");
      expect(run?.reason).toMatch(/shut down before the run finished \(grace period of 2 s ended\)/);
    } finally {
      await store.close();
    }
  });
});
