import { captureLogger, type Sink, startSink } from "@errand/channel-sdk/testing";
import { Registry } from "prom-client";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createNotifier } from "../../src/notify/create-notifier.js";
import type { Notifier } from "../../src/notify/notifier-types.js";
import { FAKE_CHAT_A_TOKEN, type FakeChatA, startFakeChatA } from "./helpers/fake-chat-a.js";
import { entry, events, metricValue, NEVER, recordFile, testChannelEntry } from "./helpers/fixtures.js";
import { buildPythonPlugin, pythonPluginRunnable } from "./helpers/python-plugin.js";

const HOOK_URL_SECRET = "https-hook-secret-url-0123456789";
const PY_SECRET = "py-plugin-secret-value-4242";

let notifier: Notifier | undefined;
let fake: FakeChatA | undefined;
let sink: Sink | undefined;
afterEach(async () => {
  await notifier?.close();
  await Promise.all([fake?.close(), sink?.close()]);
  notifier = fake = sink = undefined;
});

describe.runIf(pythonPluginRunnable)(
  "a run told to a built-in channel, the example plugin and a Python plugin (needs python3-grpcio, protobuf-compiler, libprotobuf-dev)",
  () => {
    let pythonCommand: string[];
    beforeAll(() => {
      pythonCommand = buildPythonPlugin();
    });

    it("every channel receives started, progress and finished, in order, with the run's details", async () => {
      fake = await startFakeChatA();
      sink = await startSink();
      const python = recordFile();
      const logger = captureLogger();
      const registry = new Registry();
      const secrets = {
        "chat-a-token": FAKE_CHAT_A_TOKEN,
        "hook-url": `${sink.url}/hook?key=${HOOK_URL_SECRET}`,
        "py-token": PY_SECRET,
      };
      notifier = createNotifier({
        channels: [
          entry(0, {
            backend: "chat_a",
            config: {
              channel_id: "C0000000001",
              token_secret: "chat-a-token",
              api_base_url: fake.apiBaseUrl,
              min_interval_ms: 0,
            },
            secretNames: ["chat-a-token"],
          }),
          entry(1, { backend: "webhook_post", config: { url_secret: "hook-url" }, secretNames: ["hook-url"] }),
          entry(2, {
            backend: "py_channel",
            command: pythonCommand,
            config: { record: python.path, token_secret: "py-token" },
            secretNames: ["py-token"],
          }),
        ],
        secrets,
        logger,
        registry,
      });
      await notifier.start();
      expect(notifier.list().map((s) => [s.label, s.source.kind, s.state, s.name, s.interfaceVersion])).toEqual([
        ["chat_a", "builtin", "up", "chat_a", 1],
        ["webhook_post", "package", "up", "webhook_post", 1],
        ["py_channel", "command", "up", "py_channel", 1],
      ]);

      await notifier.observer.observe(events.started(), NEVER);
      await notifier.observer.observe(events.progress("Ran the test suite: 3 failures"), NEVER);
      await notifier.observer.observe(events.finished(), NEVER);

      expect(fake.accepted.map((m) => m.text)).toEqual([
        expect.stringMatching(/started working on.*Fix the flaky login test.*claude-code/i),
        expect.stringContaining("Ran the test suite: 3 failures"),
        expect.stringMatching(/Completed.*Fix the flaky login test/),
      ]);
      // A POST that timed out on a loaded machine may have arrived and been retried: one per Idempotency-Key, as a receiver shows them.
      const once = [...new Map(sink.requests.map((r) => [r.headers["idempotency-key"], r.json])).values()];
      expect(once).toEqual([
        expect.objectContaining({
          event: "start",
          engine: "claude-code",
          task_run_id: "run_01",
          ticket: expect.objectContaining({ id: "42" }),
        }),
        expect.objectContaining({ event: "notify", message: "Ran the test suite: 3 failures", task_run_id: "run_01" }),
        expect.objectContaining({
          event: "complete",
          task_run_id: "run_01",
          result: expect.objectContaining({
            success: true,
            pull_request_url: "https://codehost.example/acme/app/pull/7",
          }),
        }),
      ]);
      expect(python.entries()).toEqual([
        expect.objectContaining({
          kind: "notifyStart",
          ticket: "42",
          taskRunId: "run_01",
          engine: "claude-code",
          secrets: { "py-token": PY_SECRET },
        }),
        expect.objectContaining({ kind: "notify", message: "Ran the test suite: 3 failures" }),
        expect.objectContaining({
          kind: "notifyComplete",
          success: true,
          summary: "Made the test wait for the session cookie.",
        }),
      ]);
      for (const label of ["chat_a", "webhook_post", "py_channel"]) {
        expect(await metricValue(registry, "agent_plugin_calls_total", { plugin: label, outcome: "ok" })).toBe(1);
        expect(await metricValue(registry, "agent_plugin_errors_total", { plugin: label })).toBe(0);
      }
      // The plugin's stderr line reached the controller's log under the channel's label; no secret did.
      expect(logger.records).toContainEqual(
        expect.objectContaining({ msg: "python plugin configured", channel: "py_channel" }),
      );
      const logs = JSON.stringify(logger.records);
      for (const secret of [FAKE_CHAT_A_TOKEN, HOOK_URL_SECRET, PY_SECRET]) expect(logs).not.toContain(secret);
    });
  },
);

describe("one backend twice", () => {
  it("two chat rooms: each built-in instance posts to its own room and logs under its own label", async () => {
    fake = await startFakeChatA();
    const logger = captureLogger();
    const room = (index: number, label: string, channelId: string) =>
      entry(index, {
        backend: "chat_a",
        label,
        config: { channel_id: channelId, token_secret: "bot", api_base_url: fake!.apiBaseUrl, min_interval_ms: 0 },
        secretNames: ["bot"],
      });
    notifier = createNotifier({
      channels: [room(0, "chat_a", "C0000000001"), room(1, "chat_a#2", "C0000000002")],
      secrets: { bot: FAKE_CHAT_A_TOKEN },
      logger,
      registry: new Registry(),
    });
    await notifier.start();
    await notifier.observer.observe(events.started(), NEVER);
    expect(fake.accepted.map((m) => m.channel).sort()).toEqual(["C0000000001", "C0000000002"]);
    expect(logger.records.filter((r) => r.msg === "chat_a ready").map((r) => r.channel)).toEqual([
      "chat_a",
      "chat_a#2",
    ]);
  });

  it("gives each instance its own config, label and metrics", async () => {
    const [a, b] = [recordFile(), recordFile()];
    const registry = new Registry();
    notifier = createNotifier({
      channels: [
        testChannelEntry(0, a.path, { label: "room-a" }),
        testChannelEntry(1, b.path, { label: "room-b", config: { fail_file: "/" } }),
      ],
      secrets: {},
      logger: captureLogger(),
      registry,
    });
    await notifier.start();
    await notifier.observer.observe(events.started(), NEVER);
    expect(a.entries()).toHaveLength(1);
    expect(b.entries()).toHaveLength(0);
    expect(await metricValue(registry, "agent_plugin_errors_total", { plugin: "room-a" })).toBe(0);
    expect(await metricValue(registry, "agent_plugin_errors_total", { plugin: "room-b" })).toBe(1);
  });

  it("forwards a plugin's plain stderr lines into the log with the channel's label", async () => {
    const logger = captureLogger();
    notifier = createNotifier({
      channels: [testChannelEntry(0, recordFile().path, { label: "room-a" })],
      secrets: {},
      logger,
      registry: new Registry(),
    });
    await notifier.start();
    await notifier.observer.observe(events.progress("stderr"), NEVER);
    // The plugin's stderr pipe and its RPC answer are separate streams: the line may arrive after the call returned.
    await expect
      .poll(() => logger.records, { timeout: 5_000 })
      .toContainEqual(
        expect.objectContaining({
          msg: "a plain line the plugin wrote on stderr",
          channel: "room-a",
          stream: "stderr",
        }),
      );
  });
});

describe("progress rate limiting", () => {
  it("lets a minute's worth of a chatty run's progress through at once, then the latest of the rest when one more is allowed", async () => {
    const record = recordFile();
    notifier = createNotifier({
      channels: [testChannelEntry(0, record.path)],
      secrets: {},
      logger: captureLogger(),
      registry: new Registry(),
      progressPerMinute: 60,
    });
    await notifier.start();
    // Offered in one go: 60 are allowed and queue up on the channel in order; the last 4 exceed the allowance, and
    // the latest of those goes a second later.
    const steps = Array.from({ length: 64 }, (_, i) => `step ${i + 1}`);
    await Promise.all(steps.map((step) => notifier!.observer.observe(events.progress(step), NEVER)));
    for (let i = 0; i < 400 && record.entries().length < 61; i++) await new Promise((r) => setTimeout(r, 25));
    await notifier.observer.observe(events.finished(), NEVER);
    expect(record.entries().map((e) => e.message ?? e.kind)).toEqual([
      ...steps.slice(0, 60),
      "step 64",
      "notifyComplete",
    ]);
  });

  it("drops a held progress message once the run finished", async () => {
    const record = recordFile();
    notifier = createNotifier({
      channels: [testChannelEntry(0, record.path)],
      secrets: {},
      logger: captureLogger(),
      registry: new Registry(),
      progressPerMinute: 1,
    });
    await notifier.start();
    await notifier.observer.observe(events.progress("first"), NEVER);
    await notifier.observer.observe(events.progress("held, then stale"), NEVER);
    await notifier.observer.observe(events.finished(), NEVER);
    await notifier.close();
    expect(record.entries().map((e) => e.message ?? e.kind)).toEqual(["first", "notifyComplete"]);
  });
});
