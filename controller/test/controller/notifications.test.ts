import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type Sink, startSink } from "@errand/channel-sdk/testing";
import { afterEach, describe, expect, it } from "vitest";
import { FAKE_CHAT_A_TOKEN, type FakeChatA, startFakeChatA } from "../notify/helpers/fake-chat-a.js";
import { recordFile } from "../notify/helpers/fixtures.js";
import { buildPythonPlugin, pythonPluginRunnable } from "../notify/helpers/python-plugin.js";
import {
  createHarness,
  eventually,
  finished,
  type InProcess,
  postTicket,
  startInProcess,
  ticketBody,
} from "./harness.js";

const open: Array<{ close(): Promise<void> | void }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

const CHANNEL_ENV = {
  ERRAND_SECRET_CHAT_TOKEN: FAKE_CHAT_A_TOKEN,
  ERRAND_SECRET_PY_TOKEN: "py-plugin-secret-value-4242",
};

async function startController(
  extra: string,
  env: Record<string, string> = CHANNEL_ENV,
  engine = "ok.sh",
  slots?: number,
): Promise<InProcess> {
  const h = createHarness({ engine, extra });
  const c = await startInProcess(
    h,
    slots === undefined ? undefined : (config) => void (config.guardrails.maxConcurrentJobs = slots),
    env,
  );
  open.push({ close: () => c.stop() });
  return c;
}

describe.runIf(pythonPluginRunnable)(
  "the controller tells every channel about a run (built-in, npm plugin, Python plugin)",
  () => {
    it("each channel receives started (with the engine), progress and the completion with the PR link", async () => {
      const fake: FakeChatA = await startFakeChatA();
      const sink: Sink = await startSink();
      open.push(fake, sink);
      const python = recordFile();
      const c = await startController(`notifications:
  progress_per_minute: 60
  channels:
    - backend: chat_a
      config: { channel_id: C0000000001, token_secret: chat-token, api_base_url: "${fake.apiBaseUrl}", min_interval_ms: 0 }
    - backend: webhook_post
      config: { url: "${sink.url}/hook" }
    - backend: py_channel
      command: ${JSON.stringify(buildPythonPlugin())}
      config: { record: "${python.path}", token_secret: py-token }
`);
      const { id, body } = ticketBody({ title: "Fix the flaky login test" });
      expect((await postTicket(c.webhookPort, body)).status).toBe(200);
      const run = await finished(c.controller.store, id);
      expect(run.state).toBe("Succeeded");
      await eventually("the completion on every channel", () =>
        fake.accepted.some((m) => /Completed/.test(m.text))
        && sink.requests.some((r) => (r.json as { event?: string } | undefined)?.event === "complete")
        && python.entries().some((e) => e.kind === "notifyComplete")
          ? true
          : undefined,
      );
      expect(fake.accepted.map((m) => m.text)).toEqual([
        expect.stringMatching(/started working on.*Fix the flaky login test.*fixture/i),
        expect.stringContaining("reading the ticket"),
        expect.stringMatching(/Completed.*Fix the flaky login test.*pull\/7/s),
      ]);
      expect(sink.requests.map((r) => r.json)).toEqual([
        expect.objectContaining({ event: "start", engine: "fixture", task_run_id: run.id }),
        expect.objectContaining({ event: "notify", message: "reading the ticket", task_run_id: run.id }),
        expect.objectContaining({
          event: "complete",
          result: expect.objectContaining({ success: true, pull_request_url: "https://github.com/acme/shop/pull/7" }),
        }),
      ]);
      expect(python.entries()).toEqual([
        expect.objectContaining({
          kind: "notifyStart",
          ticket: id,
          taskRunId: run.id,
          engine: "fixture",
          secrets: { "py-token": "py-plugin-secret-value-4242" },
        }),
        expect.objectContaining({ kind: "notify", message: "reading the ticket" }),
        expect.objectContaining({ kind: "notifyComplete", success: true, summary: "Fixed it." }),
      ]);
    });
  },
);

describe("the controller with channels that fail", () => {
  it("every channel down: runs still complete and are recorded, and each failed call is counted per channel", async () => {
    // A port nobody listens on, and a plugin executable that dies at once.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const c = await startController(`notifications:
  call_timeout_ms: 1000
  channels:
    - backend: chat_a
      config: { channel_id: C0000000001, token_secret: chat-token, api_base_url: "http://127.0.0.1:${port}/api", min_interval_ms: 0 }
    - backend: webhook_post
      name: hook
      config: { url: "http://127.0.0.1:${port}/hook" }
`);
    const tickets = [ticketBody(), ticketBody()];
    for (const t of tickets) expect((await postTicket(c.webhookPort, t.body)).status).toBe(200);
    for (const t of tickets) expect((await finished(c.controller.store, t.id, 30_000)).state).toBe("Succeeded");
    // Two runs, three events each (started, one progress, finished): six failed calls per channel, never retried.
    const errors = async (label: string) =>
      Number(
        new RegExp(`agent_plugin_errors_total\\{plugin="${label}"\\} (\\d+)`).exec(
          await c.controller.registry.metrics(),
        )?.[1] ?? 0,
      );
    await eventually(
      "every failed call counted",
      async () => ((await errors("chat_a")) === 6 && (await errors("hook")) === 6 ? true : undefined),
      20_000,
    );
    await new Promise((r) => setTimeout(r, 1000));
    expect([await errors("chat_a"), await errors("hook")]).toEqual([6, 6]);
    expect(c.logs.some((l) => l.includes('"chat_a"') && /error|fail/i.test(l))).toBe(true);
  });

  it("/readyz stays ready with an unhealthy channel and names it; /metrics has the run, queue and intake series", async () => {
    const c = await startController(`notifications:
  unhealthy_after: 1
  channels:
    - backend: chat_a
      config: { channel_id: C0000000001, token_secret: chat-token, api_base_url: "http://127.0.0.1:9/api", min_interval_ms: 0 }
`);
    const { id, body } = ticketBody();
    await postTicket(c.webhookPort, body);
    await finished(c.controller.store, id);
    const ops = c.controller.ops.address?.port;
    const health = await fetch(`http://127.0.0.1:${ops}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, "ok"]);
    const ready = await eventually("chat_a unhealthy in /readyz", async () => {
      const r = await fetch(`http://127.0.0.1:${ops}/readyz`);
      const json = (await r.json()) as {
        ready: boolean;
        checks: Array<{ name: string; ok: boolean; critical: boolean; detail: unknown }>;
      };
      return json.checks.find((k) => k.name === "notifications")?.ok === false ? { status: r.status, json } : undefined;
    });
    expect(ready.status).toBe(200);
    expect(ready.json.ready).toBe(true);
    expect(JSON.stringify(ready.json.checks)).toContain('"healthy":false');
    const metrics = await (await fetch(`http://127.0.0.1:${ops}/metrics`)).text();
    expect(metrics).toMatch(/errand_runs\{state="Succeeded"\} 1/);
    expect(metrics).toMatch(/errand_queue_depth 0/);
    expect(metrics).toMatch(/errand_run_duration_seconds_count\{state="Succeeded"\} 1/);
    expect(metrics).toMatch(/agent_plugin_healthy\{plugin="chat_a"\} 0/);
    expect(metrics).toMatch(/webhook/);
  });

  it("a channel that hangs does not hold the next run: its slot is free once the run's end is stored", async () => {
    // Accepts connections and never answers: every call waits out the 5 s bound.
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    open.push({
      close: () =>
        new Promise<void>((r) => {
          silent.closeAllConnections();
          silent.close(() => r());
        }),
    });
    const port = (silent.address() as AddressInfo).port;
    const c = await startController(
      `notifications:
  channels:
    - backend: webhook_post
      config: { url: "http://127.0.0.1:${port}/hook" }
`,
      CHANNEL_ENV,
      "ok.sh",
      1,
    );
    const first = ticketBody();
    const second = ticketBody();
    await postTicket(c.webhookPort, first.body);
    const one = await finished(c.controller.store, first.id);
    await postTicket(c.webhookPort, second.body);
    const two = await finished(c.controller.store, second.id, 30_000);
    // Were the slot held until the hung calls gave up, the second start would come 5 s (NotifyStart) or more after the first end.
    expect((two.startedAt ?? 0) - (one.finishedAt ?? 0)).toBeLessThan(5_000);
    expect(two.state).toBe("Succeeded");
  }, 60_000);
});
