import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { captureLogger } from "@errand/channel-sdk/testing";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { createNotifier } from "../../src/notify/create-notifier.js";
import type { Notifier, NotifierOptions } from "../../src/notify/notifier-types.js";
import { events, metricValue, NEVER, recordFile, taskRun, tempDir, testChannelEntry } from "./helpers/fixtures.js";

let notifier: Notifier | undefined;
afterEach(async () => {
  await notifier?.close();
  notifier = undefined;
});

function start(options: Partial<NotifierOptions> & Pick<NotifierOptions, "channels">) {
  const logger = captureLogger();
  const registry = new Registry();
  notifier = createNotifier({ secrets: {}, logger, registry, ...options });
  return { notifier, logger, registry };
}

/** Waits until `check` passes; the supervisor restarts in the background. */
async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never happened: ${what}`);
}

describe("a channel that stops answering", () => {
  it("cannot hold observe(): it resolves at the bound, the others were told, the timeout is counted once", async () => {
    const [stuck, fine] = [recordFile(), recordFile()];
    const { notifier, registry } = start({
      channels: [
        testChannelEntry(0, stuck.path, { label: "stuck" }),
        testChannelEntry(1, fine.path, { label: "fine", config: { inert: true } }),
      ],
      callTimeoutMs: 300,
    });
    await notifier.start();
    // "block" makes the stuck plugin busy-loop forever: it will never answer anything again.
    await notifier.observer.observe(events.progress("block"), NEVER);
    expect(fine.entries()).toEqual([expect.objectContaining({ kind: "notify", message: "block" })]);
    expect(
      await metricValue(registry, "agent_plugin_calls_total", {
        plugin: "stuck",
        operation: "notify",
        outcome: "timeout",
      }),
    ).toBe(1);
    expect(await metricValue(registry, "agent_plugin_errors_total", { plugin: "stuck" })).toBe(1);
  });

  it("is killed at close() even with calls in flight, and close() settles", async () => {
    const record = recordFile();
    const { notifier, logger } = start({
      channels: [testChannelEntry(0, record.path, { label: "stuck" })],
      callTimeoutMs: 60_000,
    });
    await notifier.start();
    const pid = notifier.list()[0]!.pid!;
    const inFlight = notifier.observer.observe(events.progress("block"), NEVER);
    await new Promise((r) => setTimeout(r, 200));
    await notifier.close();
    await inFlight;
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    expect(logger.records).toContainEqual(
      expect.objectContaining({ msg: "plugin ignored SIGTERM; sending SIGKILL", channel: "stuck" }),
    );
    expect(logger.records).toContainEqual(
      expect.objectContaining({ msg: "notification cancelled", channel: "stuck", operation: "notify" }),
    );
    expect(notifier.list()[0]!.state).toBe("closed");
  }, 30_000);
});

describe("a channel that crashes", () => {
  it("is restarted and receives the next event; the call it crashed in counts as one error", async () => {
    const record = recordFile();
    const { notifier, registry } = start({
      channels: [testChannelEntry(0, record.path, { label: "crashy" })],
      backoff: { initialMs: 50, maxMs: 200 },
    });
    await notifier.start();
    const firstPid = notifier.list()[0]!.pid;
    await notifier.observer.observe(events.started(), NEVER);
    await notifier.observer.observe(events.progress("crash"), NEVER);
    expect(await metricValue(registry, "agent_plugin_errors_total", { plugin: "crashy" })).toBe(1);
    await eventually(() => notifier.list()[0]!.state === "up", "the plugin restarted");
    await notifier.observer.observe(events.finished(), NEVER);
    expect(record.entries().map((e) => e.kind)).toEqual(["notifyStart", "notifyComplete"]);
    expect(record.entries()[1]!.pid).not.toBe(firstPid);
    expect(notifier.list()[0]).toMatchObject({ restarts: 1, healthy: true, consecutiveFailures: 0 });
    expect(await metricValue(registry, "agent_plugin_restarts_total", { plugin: "crashy" })).toBe(1);
    expect(await metricValue(registry, "agent_plugin_errors_total", { plugin: "crashy" })).toBe(1);
  });

  it("fails fast while it is down, each call counted as an error naming the exit", async () => {
    const record = recordFile();
    const { notifier, registry, logger } = start({
      channels: [testChannelEntry(0, record.path, { label: "down" })],
      backoff: { initialMs: 60_000, maxMs: 60_000 },
    });
    await notifier.start();
    await notifier.observer.observe(events.progress("crash"), NEVER);
    await eventually(() => notifier.list()[0]!.state === "down", "the exit was seen");
    await notifier.observer.observe(events.finished(), NEVER);
    await notifier.observer.observe(events.started(taskRun("run_02")), NEVER);
    expect(await metricValue(registry, "agent_plugin_errors_total", { plugin: "down" })).toBe(3);
    const failures = logger.records.filter((r) => r.msg === "notification failed");
    expect(failures.slice(1)).toEqual([
      expect.objectContaining({
        channel: "down",
        operation: "notify_complete",
        code: "ERR_PLUGIN_EXITED",
        error_message: expect.stringMatching(/not running \(its process exited with code 3/),
      }),
      expect.objectContaining({
        channel: "down",
        operation: "notify_start",
        run_id: "run_02",
        code: "ERR_PLUGIN_EXITED",
      }),
    ]);
  });
});

describe("every channel down", () => {
  it("observe() still resolves for each event, and each failed call is counted once, by label", async () => {
    const { notifier, registry } = start({
      channels: [
        testChannelEntry(0, recordFile().path, { label: "a" }),
        testChannelEntry(1, recordFile().path, { label: "b" }),
      ],
      backoff: { initialMs: 60_000, maxMs: 60_000 },
    });
    await notifier.start();
    await notifier.observer.observe(events.progress("crash"), NEVER);
    await eventually(() => notifier.list().every((s) => s.state === "down"), "both exits were seen");
    await notifier.observer.observe(events.progress("still there?", taskRun("run_02")), NEVER);
    await notifier.observer.observe(events.finished(), NEVER);
    for (const plugin of ["a", "b"]) {
      expect(await metricValue(registry, "agent_plugin_errors_total", { plugin })).toBe(3);
      expect(
        await metricValue(registry, "agent_plugin_calls_total", {
          plugin,
          operation: "notify_complete",
          outcome: "error",
        }),
      ).toBe(1);
    }
    expect(notifier.health()).toMatchObject({
      status: "degraded",
      channels: { a: { healthy: false, state: "down" }, b: { healthy: false } },
    });
  });
});

describe("health", () => {
  it("marks a channel unhealthy after N failures in a row and healthy again at its next delivery", async () => {
    const record = recordFile();
    const failFile = join(tempDir(), "target-down");
    const { notifier, registry, logger } = start({
      channels: [testChannelEntry(0, record.path, { label: "flaky", config: { fail_file: failFile } })],
      unhealthyAfter: 2,
    });
    await notifier.start();
    expect(await metricValue(registry, "agent_plugin_healthy", { plugin: "flaky" })).toBe(1);
    writeFileSync(failFile, "");
    await notifier.observer.observe(events.started(), NEVER);
    expect(notifier.list()[0]).toMatchObject({
      healthy: true,
      consecutiveFailures: 1,
      lastFailure: { code: "ERR_UNAVAILABLE" },
    });
    await notifier.observer.observe(events.progress("one"), NEVER);
    expect(notifier.list()[0]).toMatchObject({ healthy: false, consecutiveFailures: 2 });
    expect(await metricValue(registry, "agent_plugin_healthy", { plugin: "flaky" })).toBe(0);
    expect(notifier.health()).toMatchObject({
      status: "degraded",
      channels: { flaky: { healthy: false, state: "up", consecutiveFailures: 2 } },
    });
    rmSync(failFile);
    await notifier.observer.observe(events.finished(), NEVER);
    expect(notifier.list()[0]).toMatchObject({
      healthy: true,
      consecutiveFailures: 0,
      lastSuccessAt: expect.any(Number),
    });
    expect(await metricValue(registry, "agent_plugin_healthy", { plugin: "flaky" })).toBe(1);
    expect(notifier.health().status).toBe("ok");
    expect(logger.records.filter((r) => /unhealthy|recovered/.test(r.msg)).map((r) => [r.level, r.msg])).toEqual([
      ["warn", "notification channel is unhealthy: too many failures in a row"],
      ["info", "notification channel recovered"],
    ]);
  });
});

describe("cancellation", () => {
  it("a call cancelled by the loop's signal is not an error and leaves health alone", async () => {
    const { notifier, registry } = start({
      channels: [testChannelEntry(0, recordFile().path, { label: "slow" })],
      callTimeoutMs: 60_000,
    });
    await notifier.start();
    const loop = new AbortController();
    const observed = notifier.observer.observe(events.progress("block"), loop.signal);
    setTimeout(() => loop.abort(new Error("the loop moved on")), 100);
    await observed;
    expect(await metricValue(registry, "agent_plugin_calls_total", { plugin: "slow", outcome: "cancelled" })).toBe(1);
    expect(await metricValue(registry, "agent_plugin_errors_total", { plugin: "slow" })).toBe(0);
    expect(notifier.list()[0]!.consecutiveFailures).toBe(0);
  }, 30_000);
});
