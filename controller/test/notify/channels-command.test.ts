import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { captureLogger } from "@errand/channel-sdk/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createChannelsCommand } from "../../src/cli/commands/channels.js";
import { loadControllerConfig } from "../../src/config/load-controller-config.js";
import {
  checkChannels,
  formatChannelList,
  formatCheckResults,
  listChannels,
} from "../../src/notify/channels-report.js";
import { PLUGINS_DIR, recordFile, TEST_CHANNEL, tempDir } from "./helpers/fixtures.js";

const TOKEN = "room-token-value-31337";

/** An errand.yaml with the test plugin as a command (label "room") and the team_alerts package from plugins.dir. */
function writeConfig(record: string, extra = ""): string {
  const file = join(tempDir(), "errand.yaml");
  writeFileSync(
    file,
    [
      "plugins:",
      `  dir: ${PLUGINS_DIR}`,
      "notifications:",
      "  channels:",
      "    - backend: test_channel",
      "      name: room",
      `      command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(TEST_CHANNEL)}]`,
      `      config: { record: ${JSON.stringify(record)}, token_secret: room-token }`,
      "    - backend: team_alerts",
      `      config: { record: ${JSON.stringify(record)}${extra} }`,
      "",
    ].join("\n"),
  );
  return file;
}

async function load(file: string) {
  const { config } = await loadControllerConfig(file);
  return { config, secrets: { "room-token": TOKEN }, logger: captureLogger() };
}

afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

describe("errand channels list", () => {
  it("reports each channel's label, backend, where it was found, version, interface version and health", async () => {
    const statuses = await listChannels(await load(writeConfig(recordFile().path)));
    expect(
      statuses.map((s) => [s.label, s.backend, s.source.kind, s.version, s.interfaceVersion, s.state, s.healthy]),
    ).toEqual([
      ["room", "test_channel", "command", "1.4.2", 1, "up", true],
      ["team_alerts", "team_alerts", "package", "1.4.2", 1, "up", true],
    ]);
    const text = formatChannelList(statuses);
    expect(text.split("\n")[0]).toMatch(/^LABEL\s+BACKEND\s+VERSION\s+INTERFACE\s+STATE\s+HEALTH\s+FOUND$/);
    expect(text).toMatch(
      new RegExp(`team_alerts\\s+team_alerts\\s+1\\.4\\.2\\s+1\\s+up\\s+healthy\\s+${PLUGINS_DIR}/team-alerts`),
    );
    expect(text).toContain(
      `room         test_channel  1.4.2    1          up     healthy  ${process.execPath} ${TEST_CHANNEL}`,
    );
  });

  it("refuses a configuration the controller would refuse, naming the entry", async () => {
    const loaded = await load(writeConfig(recordFile().path));
    loaded.config.notifications.channels[1]!.backend = "team-alert";
    await expect(listChannels(loaded)).rejects.toMatchObject({
      code: "ERR_INVALID_CONFIG",
      message: expect.stringContaining(
        'notifications.channels[1] (backend "team-alert", label "team_alerts"): unknown backend "team-alert"',
      ),
    });
  });
});

describe("errand channels check", () => {
  it("sends one test notification through each channel, and says which failed and why", async () => {
    const record = recordFile();
    const results = await checkChannels(await load(writeConfig(record.path, ", fail_file: /")));
    expect(results.map((r) => [r.label, r.ok, r.error?.code])).toEqual([
      ["room", true, undefined],
      ["team_alerts", false, "ERR_UNAVAILABLE"],
    ]);
    expect(record.entries()).toEqual([
      expect.objectContaining({ kind: "notify", ticket: "errand-channel-check", secrets: { "room-token": TOKEN } }),
    ]);
    const text = formatCheckResults(results);
    expect(text).toMatch(
      /^ok {6}room \(test_channel\) {2}\d+ ms\nFAILED {2}team_alerts \(team_alerts\) {2}\d+ ms\n {8}ERR_UNAVAILABLE: team_alerts\.notify: the target is down \(fail_file exists\)\n2 channels checked: 1 ok, 1 failed\n$/,
    );
  });

  it("checks only the labelled channel, and exits 1 with --json output when it fails", async () => {
    const record = recordFile();
    const file = writeConfig(record.path, ", fail_file: /");
    const out: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => Boolean(out.push(String(chunk))));
    const command = createChannelsCommand({ loadConfig: async (f) => load(f!), logger: () => captureLogger() });
    await command.parseAsync(["check", "team_alerts", "--config", file, "--json"], { from: "user" });
    expect(process.exitCode).toBe(1);
    expect(JSON.parse(out.join(""))).toEqual([
      {
        label: "team_alerts",
        backend: "team_alerts",
        ok: false,
        durationMs: expect.any(Number),
        error: { code: "ERR_UNAVAILABLE", message: "team_alerts.notify: the target is down (fail_file exists)" },
      },
    ]);
    expect(record.entries()).toEqual([]);
  });

  it("exits 1 naming the labels there are for an unknown label", async () => {
    const err: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => Boolean(err.push(String(chunk))));
    const command = createChannelsCommand({ loadConfig: async (f) => load(f!), logger: () => captureLogger() });
    await command.parseAsync(["check", "nope", "--config", writeConfig(recordFile().path)], { from: "user" });
    expect(process.exitCode).toBe(1);
    expect(err.join("")).toBe(
      'errand: no notification channel is labelled "nope"\n  hint: configured channels: room, team_alerts\n',
    );
  });
});
