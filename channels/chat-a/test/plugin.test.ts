import { fileURLToPath } from "node:url";
import { connectChannel, type RemoteChannel } from "@errand/channel-sdk/host";
import { captureLogger, fixtures } from "@errand/channel-sdk/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeSlack, startFakeSlack } from "./fake-slack.js";
import { rejectionOf, TOKEN } from "./helpers.js";

const BIN = fileURLToPath(new URL("../bin/errand-channel-chat-a.js", import.meta.url));

let fake: FakeSlack;
let channel: RemoteChannel | undefined;
beforeEach(async () => {
  fake = await startFakeSlack({ intervalMs: 100 });
});
afterEach(async () => {
  await channel?.close();
  channel = undefined;
  await fake.close();
});

describe("chat_a as a plugin process (its package bin)", () => {
  it("takes the token from the Handshake and delivers every message kind", async () => {
    const logger = captureLogger({ secrets: [TOKEN] });
    channel = await connectChannel({
      command: process.execPath,
      args: [BIN],
      config: {
        channel_id: "C0000000002",
        token_secret: "chat-a-token",
        api_base_url: fake.apiBaseUrl,
        min_interval_ms: 100,
      },
      secrets: { "chat-a-token": TOKEN },
      logger,
    });
    expect(channel.name).toBe("chat_a");
    expect(channel.interfaceVersion).toBe(1);
    const start = await channel.notifyStart(fixtures.tickets.unicode, { engine: "claude-code", taskRunId: "run-7" });
    await channel.notifyComplete(fixtures.tickets.basic, fixtures.results.success);
    await channel.notifyComplete(fixtures.tickets.basic, fixtures.results.failure);
    await channel.notify("progress", fixtures.tickets.minimal);
    expect(start.deliveryId).toMatch(/^C0000000002\//);
    expect(fake.accepted).toHaveLength(4);
    expect(fake.accepted.every((m) => m.channel === "C0000000002")).toBe(true);
    expect(JSON.stringify(logger.records)).not.toContain(TOKEN);
  });

  it("takes the token from the environment when the host passes secrets that way", async () => {
    channel = await connectChannel({
      command: process.execPath,
      args: [BIN],
      env: { ERRAND_CHANNEL_SECRETS: JSON.stringify({ "chat-a-token": TOKEN }) },
      config: {
        channel_id: "C0000000001",
        token_secret: "chat-a-token",
        api_base_url: fake.apiBaseUrl,
        min_interval_ms: 100,
      },
      logger: captureLogger(),
    });
    await channel.notify("from env", fixtures.tickets.basic);
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("refuses a bad config at the Handshake with the config error", async () => {
    const error = await rejectionOf(
      connectChannel({
        command: process.execPath,
        args: [BIN],
        config: { channel_id: "#general", token_secret: "chat-a-token" },
        secrets: { "chat-a-token": TOKEN },
        logger: captureLogger(),
      }),
    );
    expect(error.code).toBe("ERR_INVALID_CONFIG");
    expect(error.message).toContain("looks like a channel name");
  });

  it("passes the platform's typed errors and cancellation through the process boundary", async () => {
    channel = await connectChannel({
      command: process.execPath,
      args: [BIN],
      config: {
        channel_id: "C0000000003",
        token_secret: "chat-a-token",
        api_base_url: fake.apiBaseUrl,
        min_interval_ms: 100,
      },
      secrets: { "chat-a-token": TOKEN },
      logger: captureLogger(),
    });
    const denied = await rejectionOf(channel.notify("x", fixtures.tickets.basic));
    expect(denied.code).toBe("ERR_PERMISSION_DENIED");
    expect(denied.message).toContain("not_in_channel");

    fake.script({ hang: true });
    const controller = new AbortController();
    const pending = channel.notify("hang", fixtures.tickets.basic, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const cancelled = await rejectionOf(pending);
    expect(cancelled.code).toBe("ERR_CANCELLED");
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
