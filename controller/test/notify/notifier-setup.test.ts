import { captureLogger } from "@errand/channel-sdk/testing";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { ChannelSetupError } from "../../src/notify/channel-setup-error.js";
import { createNotifier } from "../../src/notify/create-notifier.js";
import type { Notifier, NotifierOptions } from "../../src/notify/notifier-types.js";
import { entry, PLUGINS_DIR, recordFile, testChannelEntry } from "./helpers/fixtures.js";

let notifier: Notifier | undefined;
afterEach(async () => {
  await notifier?.close();
  notifier = undefined;
});

function create(options: Partial<NotifierOptions> & Pick<NotifierOptions, "channels">) {
  const logger = captureLogger();
  notifier = createNotifier({ secrets: {}, logger, registry: new Registry(), pluginsDir: PLUGINS_DIR, ...options });
  return { notifier, logger };
}

async function setupError(notifier: Notifier): Promise<ChannelSetupError> {
  const error = await notifier.start().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ChannelSetupError)) throw new Error(`expected a ChannelSetupError, got ${String(error)}`);
  return error;
}

describe("start-up errors name the entry and the fix", () => {
  it("lists every problem at once: a duplicate label, an unknown backend, a secret not resolved", async () => {
    const { notifier } = create({
      channels: [
        testChannelEntry(0, recordFile().path, { label: "ops" }),
        testChannelEntry(1, recordFile().path, { label: "ops" }),
        entry(2, { backend: "team-alerts" }),
        entry(3, { backend: "chat_a", config: { token_secret: "bot" }, secretNames: ["bot"] }),
      ],
    });
    const error = await setupError(notifier);
    expect(error.code).toBe("ERR_INVALID_CONFIG");
    expect(error.problems.map((p) => [p.entry, p.message])).toEqual([
      [
        'notifications.channels[1] (backend "test_channel", label "ops")',
        'the label "ops" is already used by notifications.channels[0] (backend "test_channel", label "ops")',
      ],
      [
        'notifications.channels[2] (backend "team-alerts")',
        expect.stringMatching(/^unknown backend "team-alerts": it is not a built-in channel \(chat_a, chat_b\)/),
      ],
      ['notifications.channels[3] (backend "chat_a")', 'the secret(s) "bot" named in its config were not resolved'],
    ]);
    expect(error.message).toContain('notifications.channels[2] (backend "team-alerts"): unknown backend');
    expect(error.hint).toBe("give each entry its own name (name: team-room), so logs and metrics can tell them apart");
    // Nothing was left running: the valid entry was never started.
    expect(notifier.list().map((s) => s.state)).toEqual(["closed"]);
  });

  it("refuses a plugin without interface version 1, mapping the SDK's version mismatch", async () => {
    const { notifier } = create({
      channels: [entry(0, { backend: "future" }), testChannelEntry(1, recordFile().path)],
    });
    const error = await setupError(notifier);
    expect(error.problems).toEqual([
      expect.objectContaining({
        entry: 'notifications.channels[0] (backend "future")',
        channelCode: "ERR_VERSION_MISMATCH",
        message: expect.stringMatching(/offers interface version 2 .*this host supports 1/),
        fix: "upgrade the older side so both share an interface version",
      }),
    ]);
    expect(notifier.list().map((s) => s.state)).toEqual(["closed", "closed"]);
  });

  it("refuses a plugin that reports another name than its backend", async () => {
    const { notifier } = create({
      channels: [
        entry(0, { backend: "misnamed" }),
        testChannelEntry(1, recordFile().path, { backend: "other_plugin" }),
      ],
    });
    const error = await setupError(notifier);
    expect(error.problems.map((p) => [p.entry, p.message, p.fix])).toEqual([
      [
        'notifications.channels[0] (backend "misnamed")',
        'the plugin reports the channel name "something_else", not "misnamed"',
        expect.stringMatching(
          /^the package errand-channel-misnamed declares errand.channel "misnamed" but serves "something_else"; reinstall a fixed release \(npx --package @errand\/cli channel lint \/\S+ shows the mismatch\)$/,
        ),
      ],
      [
        'notifications.channels[1] (backend "other_plugin")',
        'the plugin reports the channel name "test_channel", not "other_plugin"',
        'set backend: test_channel if this is the plugin you meant, or point command at the "other_plugin" plugin',
      ],
    ]);
  });

  it("reports a config the channel refuses with the channel's own hint", async () => {
    const { notifier } = create({
      channels: [
        entry(0, { backend: "chat_a", config: { channel_id: "#general" } }),
        testChannelEntry(1, recordFile().path, { config: { refuse: true } }),
      ],
    });
    const error = await setupError(notifier);
    expect(error.problems).toEqual([
      expect.objectContaining({
        entry: 'notifications.channels[0] (backend "chat_a")',
        channelCode: "ERR_INVALID_CONFIG",
        message: expect.stringContaining("chat_a:"),
      }),
      expect.objectContaining({
        channelCode: "ERR_INVALID_CONFIG",
        message: expect.stringMatching(/test-channel\.mjs: Handshake: test_channel: config\.refuse is true$/),
        fix: "remove refuse from the channel's config",
      }),
    ]);
  });
});

describe("a plugin that fails to start for another reason", () => {
  it("does not stop the controller: the channel is down, retried, and its calls fail fast saying why", async () => {
    const crashAtStart = entry(0, { backend: "broken", command: [process.execPath, "-e", "process.exit(7)"] });
    const { notifier, logger } = create({ channels: [crashAtStart], backoff: { initialMs: 60_000, maxMs: 60_000 } });
    await notifier.start();
    expect(notifier.list()[0]).toMatchObject({
      state: "down",
      downReason: expect.stringMatching(/^its start failed: ERR_PLUGIN_START: .*exited \(code 7/),
    });
    expect(logger.records).toContainEqual(
      expect.objectContaining({ level: "error", msg: "notification channel failed to start", channel: "broken" }),
    );
    const [result] = await notifier.check();
    expect(result).toMatchObject({
      label: "broken",
      ok: false,
      error: { code: "ERR_PLUGIN_EXITED", message: expect.stringContaining("its start failed") },
    });
  });
});

describe("check() and list()", () => {
  it("sends one marked test notification through each channel and reports how it went", async () => {
    const [good, bad] = [recordFile(), recordFile()];
    const { notifier } = create({
      channels: [
        testChannelEntry(0, good.path, { label: "good" }),
        testChannelEntry(1, bad.path, { label: "bad", config: { fail_file: "/" } }),
      ],
    });
    await notifier.start();
    const results = await notifier.check();
    expect(results).toEqual([
      { label: "good", backend: "test_channel", ok: true, durationMs: expect.any(Number) },
      {
        label: "bad",
        backend: "test_channel",
        ok: false,
        durationMs: expect.any(Number),
        error: {
          code: "ERR_UNAVAILABLE",
          message: "test_channel.notify: the target is down (fail_file exists)",
          hint: undefined,
        },
      },
    ]);
    expect(good.entries()).toEqual([
      expect.objectContaining({
        kind: "notify",
        ticket: "errand-channel-check",
        message: expect.stringMatching(/^Errand test notification: channel check from .+ at \d{4}-\d\d-\d\dT/),
      }),
    ]);
    expect(await notifier.check("good")).toEqual([expect.objectContaining({ label: "good", ok: true })]);
    await expect(notifier.check("nope")).rejects.toMatchObject({
      code: "ERR_NOT_FOUND",
      message: 'no notification channel is labelled "nope"',
      hint: "configured channels: good, bad",
    });
  });

  it("lists each channel with where it was found, its version, interface version and health", async () => {
    const { notifier } = create({
      channels: [
        entry(0, { backend: "team_alerts", config: { record: recordFile().path } }),
        testChannelEntry(1, recordFile().path),
      ],
    });
    await notifier.start();
    const [alerts, command] = notifier.list();
    expect(alerts).toMatchObject({
      label: "team_alerts",
      backend: "team_alerts",
      source: { kind: "package", where: `${PLUGINS_DIR}/team-alerts`, packageName: "errand-channel-team-alerts" },
      state: "up",
      name: "team_alerts",
      version: "1.4.2",
      interfaceVersion: 1,
      pid: expect.any(Number),
      healthy: true,
      restarts: 0,
    });
    expect(command).toMatchObject({ source: { kind: "command", where: expect.stringContaining("test-channel.mjs") } });
  });
});
