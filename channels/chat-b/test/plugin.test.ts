import { fileURLToPath } from "node:url";
import { connectChannel, type RemoteChannel } from "@errand/channel-sdk/host";
import { captureLogger, fixtures } from "@errand/channel-sdk/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeDiscord, startFakeDiscord } from "./fake-discord.js";
import { rejectionOf } from "./helpers.js";

const BIN = fileURLToPath(new URL("../bin/errand-channel-chat-b.js", import.meta.url));

let fake: FakeDiscord;
let channel: RemoteChannel | undefined;
beforeEach(async () => {
  fake = await startFakeDiscord({ windowMs: 300 });
});
afterEach(async () => {
  await channel?.close();
  channel = undefined;
  await fake.close();
});

describe("chat_b as a plugin process (its package bin)", () => {
  it("takes the webhook URL from the Handshake and delivers every message kind", async () => {
    const url = fake.webhookUrl("222");
    const logger = captureLogger({ secrets: [url] });
    channel = await connectChannel({
      command: process.execPath,
      args: [BIN],
      config: { webhook_url_secret: "chat-b-webhook", username: "Errand" },
      secrets: { "chat-b-webhook": url },
      logger,
    });
    expect(channel.name).toBe("chat_b");
    const start = await channel.notifyStart(fixtures.tickets.unicode, { engine: "claude-code", taskRunId: "run-7" });
    await channel.notifyComplete(fixtures.tickets.basic, fixtures.results.success);
    await channel.notifyComplete(fixtures.tickets.basic, fixtures.results.failure);
    await channel.notify("progress", fixtures.tickets.minimal);
    expect(start.deliveryId).toBe(fake.accepted[0]!.id);
    expect(fake.accepted.map((m) => m.webhookId)).toEqual(["222", "222", "222", "222"]);
    expect(JSON.stringify(logger.records)).not.toContain(url);
  });

  it("takes the webhook URL from the environment when the host passes secrets that way", async () => {
    channel = await connectChannel({
      command: process.execPath,
      args: [BIN],
      env: { ERRAND_CHANNEL_SECRETS: JSON.stringify({ "chat-b-webhook": fake.webhookUrl("111") }) },
      config: { webhook_url_secret: "chat-b-webhook" },
      logger: captureLogger(),
    });
    await channel.notify("from env", fixtures.tickets.basic);
    expect(fake.accepted).toHaveLength(1);
  });

  it("never shows the webhook URL in errors that cross the process boundary", async () => {
    const url = `${fake.url}/api/webhooks/404404/very-secret-token`;
    const logger = captureLogger({ secrets: [url] });
    channel = await connectChannel({
      command: process.execPath,
      args: [BIN],
      config: { webhook_url_secret: "chat-b-webhook" },
      secrets: { "chat-b-webhook": url },
      logger,
    });
    const error = await rejectionOf(channel.notify("x", fixtures.tickets.basic));
    expect(error.code).toBe("ERR_NOT_FOUND");
    expect(error.message).toContain("Unknown Webhook");
    const seen = JSON.stringify([error.message, error.hint, error.stack, logger.records]);
    expect(seen).not.toContain("very-secret-token");
    expect(seen).not.toContain("404404");
  });

  it("a bad config fails the Handshake with the config error", async () => {
    const error = await rejectionOf(
      connectChannel({
        command: process.execPath,
        args: [BIN],
        config: { webhook_url_secret: "chat-b-webhook", username: "discord bot" },
        secrets: { "chat-b-webhook": fake.webhookUrl() },
        logger: captureLogger(),
      }),
    );
    expect(error.code).toBe("ERR_INVALID_CONFIG");
    expect(error.message).toContain('"discord"');
  });
});
