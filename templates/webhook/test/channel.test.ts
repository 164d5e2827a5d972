import { InvalidConfigError } from "@errand/channel-sdk";
import { loadChannel } from "@errand/channel-sdk/host";
import { fixtures, type Sink, startSink } from "@errand/channel-sdk/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { channel } from "../src/channel.js";

let sink: Sink;
beforeEach(async () => {
  sink = await startSink();
});
afterEach(() => sink.close());

const load = () =>
  loadChannel(channel, { config: { webhook_url_secret: "hook" }, secrets: { hook: `${sink.url}/hooks/1` } });

describe("{{name}}", () => {
  it("posts a start message with the ticket and the engine", async () => {
    const ch = await load();
    await ch.notifyStart(fixtures.tickets.basic, { engine: "claude-code" });
    const [request] = await sink.waitForRequests(1);
    expect(request?.path).toBe("/hooks/1");
    expect((request!.json as { text: string }).text).toContain(fixtures.tickets.basic.title);
    expect((request!.json as { text: string }).text).toContain("claude-code");
    await ch.close();
  });

  it("shows the pull request on success and the reason on failure", async () => {
    const ch = await load();
    await ch.notifyComplete(fixtures.tickets.basic, fixtures.results.success);
    await ch.notifyComplete(fixtures.tickets.basic, fixtures.results.failure);
    const [ok, failed] = (await sink.waitForRequests(2)).map((r) => (r.json as { text: string }).text);
    expect(ok).toContain(fixtures.results.success.pullRequestUrl);
    expect(failed).toContain(fixtures.results.failure.failureReason.slice(0, 40));
    await ch.close();
  });

  it("retries a 429 after Retry-After", async () => {
    sink.behave([{ status: 429, retryAfter: 1, times: 1 }, {}]);
    const ch = await load();
    await ch.notify("hello", fixtures.tickets.basic);
    const requests = await sink.waitForRequests(2);
    expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeGreaterThanOrEqual(900);
    await ch.close();
  });

  it("sends the next message a second after the webhook answered the previous one", async () => {
    sink.behave([{ delayMs: 700, times: 1 }, {}]);
    const ch = await load();
    await Promise.all([ch.notify("one", fixtures.tickets.basic), ch.notify("two", fixtures.tickets.basic)]);
    const [first, second] = await sink.waitForRequests(2);
    // 700 ms to answer the first, then the second slot a second later.
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(1700);
    await ch.close();
  });

  it("refuses a config without the webhook secret, with a hint", async () => {
    const error = await loadChannel(channel, { config: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect((error as InvalidConfigError).message).toContain("config.webhook_url_secret: is required");
    expect((error as InvalidConfigError).hint).toBeTruthy();
    await expect(loadChannel(channel, { config: { webhook_url_secret: "missing" } })).rejects.toThrow(/missing/);
  });
});
