import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { captureLogger } from "@errand/channel-sdk/testing";
import { Registry } from "prom-client";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createNotifier } from "../../src/notify/create-notifier.js";
import type { Notifier, NotifierOptions } from "../../src/notify/notifier-types.js";
import {
  entry,
  events,
  metricValue,
  NEVER,
  recordFile,
  taskRun,
  tempDir,
  testChannelEntry,
} from "./helpers/fixtures.js";
import { buildPythonPlugin, pythonPluginRunnable } from "./helpers/python-plugin.js";

// The probe of unhealthy plugin channels, with real plugin processes: the
// Python plugin's health service answers NOT_SERVING while its target is
// down (config.down_file exists); the SDK's test channel always answers
// SERVING while its process serves.
let notifier: Notifier | undefined;
afterEach(async () => {
  await notifier?.close();
  notifier = undefined;
});

function start(options: Partial<NotifierOptions> & Pick<NotifierOptions, "channels">) {
  const logger = captureLogger();
  const registry = new Registry();
  notifier = createNotifier({ secrets: {}, logger, registry, unhealthyAfter: 2, probeIntervalMs: 100, ...options });
  return { notifier, logger, registry };
}

async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never happened: ${what}`);
}

const probes = (registry: Registry, plugin: string, outcome: "ok" | "failed") =>
  metricValue(registry, "agent_plugin_probes_total", { plugin, outcome });

describe.runIf(pythonPluginRunnable)(
  "a plugin whose health service reports its target (Python plugin; needs python3-grpcio, protobuf-compiler)",
  () => {
    let pythonCommand: string[];
    beforeAll(() => {
      pythonCommand = buildPythonPlugin();
    });

    it("stays unhealthy while its health check answers NOT_SERVING, and the probe marks it healthy once it answers SERVING, without a notification", async () => {
      const record = recordFile();
      const downFile = join(tempDir(), "target-down");
      const { notifier, registry, logger } = start({
        channels: [
          entry(0, {
            backend: "py_channel",
            label: "py",
            command: pythonCommand,
            config: { record: record.path, down_file: downFile },
          }),
        ],
      });
      await notifier.start();
      writeFileSync(downFile, "");
      await notifier.observer.observe(events.started(), NEVER);
      await notifier.observer.observe(events.progress("one"), NEVER);
      expect(notifier.list()[0]).toMatchObject({
        healthy: false,
        consecutiveFailures: 2,
        lastFailure: { code: "ERR_UNAVAILABLE" },
      });

      // NOT_SERVING: probed again and again, still unhealthy.
      await eventually(async () => (await probes(registry, "py", "failed")) >= 3, "three failed probes");
      expect(await probes(registry, "py", "ok")).toBe(0);
      expect(notifier.list()[0]).toMatchObject({ healthy: false, probing: true });
      expect(notifier.health()).toMatchObject({
        status: "degraded",
        channels: { py: { healthy: false, probing: true } },
      });
      expect(await metricValue(registry, "agent_plugin_healthy", { plugin: "py" })).toBe(0);
      expect(logger.records).toContainEqual(
        expect.objectContaining({
          msg: "notification channel still unhealthy: its health check failed",
          code: "ERR_UNAVAILABLE",
          channel: "py",
        }),
      );

      rmSync(downFile);
      await eventually(() => notifier.list()[0]!.healthy, "the probe marks it healthy");
      expect(await probes(registry, "py", "ok")).toBe(1);
      expect(await metricValue(registry, "agent_plugin_healthy", { plugin: "py" })).toBe(1);
      expect(notifier.health()).toMatchObject({
        status: "ok",
        channels: { py: { healthy: true, probing: false, onProbation: true, consecutiveFailures: 0 } },
      });
      expect(logger.records).toContainEqual(
        expect.objectContaining({ level: "info", msg: "notification channel recovered", by: "probe", channel: "py" }),
      );
      // No notification was sent to find out: the plugin recorded nothing, and only the two failed calls were made.
      expect(record.entries()).toEqual([]);
      expect(
        await metricValue(registry, "agent_plugin_calls_total", { plugin: "py", operation: "notify", outcome: "ok" }),
      ).toBe(0);
      // Probing stopped with the recovery.
      const before = (await probes(registry, "py", "failed")) + (await probes(registry, "py", "ok"));
      await new Promise((r) => setTimeout(r, 400));
      expect((await probes(registry, "py", "failed")) + (await probes(registry, "py", "ok"))).toBe(before);
    }, 60_000);
  },
);

describe("probing a plugin built with the SDK (its health check answers SERVING while its process serves)", () => {
  it("marks it healthy on probation: its next failure makes it unhealthy again at once, a delivery ends the probation", async () => {
    const record = recordFile();
    const failFile = join(tempDir(), "target-down");
    const { notifier, registry, logger } = start({
      channels: [testChannelEntry(0, record.path, { label: "flaky", config: { fail_file: failFile } })],
    });
    await notifier.start();
    writeFileSync(failFile, "");
    await notifier.observer.observe(events.started(), NEVER);
    await notifier.observer.observe(events.progress("one"), NEVER);
    expect(notifier.list()[0]!.healthy).toBe(false);
    await eventually(() => notifier.list()[0]!.healthy, "the probe marks it healthy");
    expect(notifier.list()[0]).toMatchObject({ healthy: true, onProbation: true, probing: false });

    // Progress messages of one run are rate-limited: a new run's start is always sent.
    await notifier.observer.observe(events.started(taskRun("run_02")), NEVER);
    expect(notifier.list()[0]).toMatchObject({ healthy: false, onProbation: false, consecutiveFailures: 1 });
    expect(logger.records).toContainEqual(
      expect.objectContaining({
        level: "warn",
        msg: "notification channel is unhealthy: it failed again after a probe had marked it healthy",
      }),
    );
    await eventually(() => notifier.list()[0]!.healthy, "probed healthy again");

    rmSync(failFile);
    await notifier.observer.observe(events.finished(), NEVER);
    expect(notifier.list()[0]).toMatchObject({ healthy: true, onProbation: false, consecutiveFailures: 0 });
    expect(await probes(registry, "flaky", "ok")).toBe(2);
  }, 60_000);

  it("a crashed plugin is probed after its restart; probes stop on shutdown", async () => {
    const record = recordFile();
    const { notifier, registry, logger } = start({
      channels: [testChannelEntry(0, record.path, { label: "crashy" })],
      unhealthyAfter: 1,
      probeIntervalMs: 300,
      backoff: { initialMs: 1500, maxMs: 1500 },
    });
    await notifier.start();
    await notifier.observer.observe(events.progress("crash"), NEVER);
    expect(notifier.list()[0]).toMatchObject({ healthy: false, probing: true });
    await eventually(() => notifier.list()[0]!.healthy, "healthy once restarted and probed");
    expect(notifier.list()[0]!.restarts).toBe(1);
    expect(logger.records).toContainEqual(
      expect.objectContaining({ msg: "notification channel recovered", by: "probe", channel: "crashy" }),
    );
    expect(record.entries()).toEqual([]);

    // Unhealthy again, then shut down: no probe after close().
    await notifier.observer.observe(events.progress("crash", taskRun("run_02")), NEVER);
    expect(notifier.list()[0]!.probing).toBe(true);
    await notifier.close();
    const after = (await probes(registry, "crashy", "failed")) + (await probes(registry, "crashy", "ok"));
    await new Promise((r) => setTimeout(r, 1000));
    expect((await probes(registry, "crashy", "failed")) + (await probes(registry, "crashy", "ok"))).toBe(after);
    expect(notifier.list()[0]!.probing).toBe(false);
  }, 60_000);
});

describe("built-in channels", () => {
  it("are not probed: they have no health service and recover at their next delivery", async () => {
    const { notifier } = start({
      channels: [entry(0, { backend: "chat_b", config: { webhook_url_secret: "hook" }, secretNames: ["hook"] })],
      secrets: { hook: "http://127.0.0.1:9/api/webhooks/1/token" },
      unhealthyAfter: 1,
    });
    await notifier.start();
    await notifier.observer.observe(events.progress("one"), NEVER);
    expect(notifier.list()[0]).toMatchObject({ healthy: false, probing: false });
  });
});
