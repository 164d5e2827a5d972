import { InvalidConfigError, RejectedError } from "@errand/channel-sdk";
import { loadChannel } from "@errand/channel-sdk/host";
import { fixtures, type Sink, startSink } from "@errand/channel-sdk/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { channel } from "../src/channel.js";

let sink: Sink;
beforeEach(async () => {
  sink = await startSink({ behaviour: { json: { ok: true, ts: "1700000000.000100" } } });
});
afterEach(() => sink.close());

const load = () =>
  loadChannel(channel, {
    config: { channel_id: "C123", token_secret: "bot-token", api_base_url: `${sink.url}/api` },
    secrets: { "bot-token": "xoxb-test-token" },
  });

describe("{{name}}", () => {
  it("posts to chat.postMessage with the bot token and returns the message id", async () => {
    const ch = await load();
    const result = await ch.notifyStart(fixtures.tickets.basic, { engine: "claude-code" });
    const [request] = await sink.waitForRequests(1);
    expect(request?.path).toBe("/api/chat.postMessage");
    expect(request?.headers.authorization).toBe("Bearer xoxb-test-token");
    expect(request?.json).toMatchObject({ channel: "C123" });
    expect((request!.json as { text: string }).text).toContain(fixtures.tickets.basic.title);
    expect(result.deliveryId).toBe("1700000000.000100");
    await ch.close();
  });

  it("turns ok:false into a RejectedError with a hint", async () => {
    sink.behave({ json: { ok: false, error: "not_in_channel" } });
    const ch = await load();
    const error = await ch.notify("hello", fixtures.tickets.basic).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RejectedError);
    expect((error as RejectedError).message).toContain("not_in_channel");
    await ch.close();
  });

  it("sends the next message a second after the service answered the previous one", async () => {
    sink.behave([{ delayMs: 700, times: 1, json: { ok: true, ts: "1" } }, { json: { ok: true, ts: "2" } }]);
    const ch = await load();
    await Promise.all([ch.notify("one", fixtures.tickets.basic), ch.notify("two", fixtures.tickets.basic)]);
    const [first, second] = await sink.waitForRequests(2);
    // 700 ms to answer the first, then the second slot a second later.
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(1700);
    await ch.close();
  });

  it("refuses a config without channel_id or token, naming both", async () => {
    const error = await loadChannel(channel, { config: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect((error as Error).message).toMatch(/config\.channel_id: is required.*config\.token_secret: is required/);
  });

  it("refuses a token secret that was not provided, naming it", async () => {
    const error = await loadChannel(channel, { config: { channel_id: "C123", token_secret: "bot-token" } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect((error as Error).message).toContain('the secret "bot-token"');
  });
});
