import { fixtures } from "@errand/channel-sdk/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { until } from "../../../test/support/until.js";
import { type FakeDiscord, startFakeDiscord } from "./fake-discord.js";
import { loadChatB, rejectionOf } from "./helpers.js";

let fake: FakeDiscord;
beforeEach(async () => {
  fake = await startFakeDiscord({ windowMs: 400 });
});
afterEach(async () => {
  await fake.close();
});

const description = (i: number) => (fake.accepted[i]!.body.embeds as { description?: string }[])[0]!.description;

describe("chat_b in-process against the fake webhook", () => {
  it("delivers all four messages as JSON with wait=true, name and avatar, and returns the message id", async () => {
    const { channel, logger, url } = await loadChatB(fake, {
      username: "Errand",
      avatar_url: "https://cdn.example.com/e.png",
    });
    const start = await channel.notifyStart(fixtures.tickets.basic, { engine: "claude-code", taskRunId: "run-1" });
    await channel.notifyComplete(fixtures.tickets.basic, fixtures.results.success, { taskRunId: "run-1" });
    await channel.notifyComplete(fixtures.tickets.basic, fixtures.results.failure, { taskRunId: "run-1" });
    await channel.notify("halfway there", fixtures.tickets.basic, { taskRunId: "run-1" });
    expect(start.deliveryId).toBe(fake.accepted[0]!.id);
    expect(fake.accepted).toHaveLength(4);
    expect(
      fake.requests.every(
        (r) => r.query.get("wait") === "true" && r.headers["content-type"] === "application/json; charset=utf-8",
      ),
    ).toBe(true);
    expect(fake.accepted.map((m) => m.body.username)).toEqual(["Errand", "Errand", "Errand", "Errand"]);
    expect(description(3)).toBe("halfway there");
    expect(JSON.stringify(logger.records)).not.toContain(url);
    await channel.close();
  });

  it("delivers unicode and extreme lengths within the limits", async () => {
    const { channel } = await loadChatB(fake);
    await channel.notifyComplete(fixtures.tickets.unicode, fixtures.results.unicode);
    await channel.notify(fixtures.tickets.longText.description, fixtures.tickets.longText);
    await channel.notifyComplete(fixtures.tickets.longText, fixtures.results.longSummary);
    expect(fake.accepted).toHaveLength(3);
    expect(JSON.stringify(fake.accepted[0]!.body)).toContain("👩🏽‍💻 👨‍👩‍👧‍👦 🇯🇵");
    await channel.close();
  });

  describe("the platform's errors become clear, final errors; the URL never shows", () => {
    it("unknown webhook (404, code 10015)", async () => {
      const url = `${fake.url}/api/webhooks/999/whatever-token`;
      const { channel, logger } = await loadChatB(fake, {}, url);
      const error = await rejectionOf(channel.notify("x", fixtures.tickets.basic));
      expect(error.code).toBe("ERR_NOT_FOUND");
      expect(error.message).toContain("Unknown Webhook");
      expect(error.hint).toContain('"chat-b-webhook"');
      expect(fake.requests).toHaveLength(1);
      const seen = JSON.stringify([error.message, error.hint, error.stack, logger.records]);
      expect(seen).not.toContain("whatever-token");
      expect(seen).not.toContain("/999/");
      await channel.close();
    });

    it("wrong token (401, code 50027)", async () => {
      const url = `${fake.url}/api/webhooks/111/stolen-or-old-token`;
      const { channel } = await loadChatB(fake, {}, url);
      const error = await rejectionOf(channel.notifyStart(fixtures.tickets.basic, { engine: "e" }));
      expect(error.code).toBe("ERR_UNAUTHENTICATED");
      expect(error.message).toContain("Invalid Webhook Token");
      expect(error.message).not.toContain("stolen-or-old-token");
      expect(fake.requests).toHaveLength(1);
      await channel.close();
    });

    it("a webhook URL with a line break, NUL or non-ASCII character is refused at start, not answered 401 on every notification", async () => {
      const good = fake.webhookUrl("111");
      for (const url of [`${good.slice(0, -3)}\n${good.slice(-3)}`, `${good}\u0000`, `${good}✓`]) {
        const error = await rejectionOf(loadChatB(fake, {}, url));
        expect(error.code).toBe("ERR_INVALID_CONFIG");
        expect(error.message).toContain('the secret "chat-b-webhook" named by webhook_url_secret contains');
        expect(error.hint).toContain("copy the webhook URL again");
        expect(`${error.message} ${error.hint}`).not.toContain("token-one");
      }
      expect(fake.requests).toHaveLength(0);
      const { channel } = await loadChatB(fake, {}, `${good}\n`);
      await channel.notify("hi", fixtures.tickets.basic);
      expect(fake.accepted).toHaveLength(1);
      await channel.close();
    });

    it("a refused body (400, code 50035) is not retried and keeps the platform's details", async () => {
      const { channel } = await loadChatB(fake);
      fake.script({
        status: 400,
        json: {
          code: 50035,
          errors: {
            embeds: {
              "0": {
                title: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 256 or fewer in length." }] },
              },
            },
          },
          message: "Invalid Form Body",
        },
      });
      const error = await rejectionOf(channel.notify("x", fixtures.tickets.basic));
      expect(error.code).toBe("ERR_INVALID_ARGUMENT");
      expect(error.message).toContain("Invalid Form Body");
      expect(error.hint).toContain("bug in the chat_b channel");
      expect(fake.requests).toHaveLength(1);
      await channel.close();
    });
  });

  describe("rate limits and transient failures", () => {
    it("with digests out of reach, a burst of 12 follows the bucket headers: in order, no 429", async () => {
      const { channel } = await loadChatB(fake, { digest_threshold: 1000 });
      const started = Date.now();
      await Promise.all(Array.from({ length: 12 }, (_, i) => channel.notify(`message ${i}`, fixtures.tickets.basic)));
      await until(() => fake.accepted.length === 12, "12 messages");
      expect(fake.rateLimited).toBe(0);
      expect(fake.accepted.map((_, i) => description(i))).toEqual(Array.from({ length: 12 }, (_, i) => `message ${i}`));
      // 12 requests at 5 per 400 ms need two waits for a refill.
      expect(Date.now() - started).toBeGreaterThanOrEqual(780);
      await channel.close();
    });

    it("honours a 429's retry_after and then delivers", async () => {
      const { channel } = await loadChatB(fake);
      fake.script({
        status: 429,
        json: { message: "You are being rate limited.", retry_after: 0.6, global: false },
        headers: { "retry-after": "1" },
      });
      await channel.notify("after a 429", fixtures.tickets.basic);
      expect(fake.requests.map((r) => r.status)).toEqual([429, 200]);
      expect(fake.requests[1]!.receivedAt - fake.requests[0]!.receivedAt).toBeGreaterThanOrEqual(590);
      await channel.close();
    });

    it("retries a 502 once and delivers exactly one message", async () => {
      const { channel } = await loadChatB(fake);
      fake.script({ status: 502, json: { message: "Bad Gateway" } });
      await channel.notify("after a 502", fixtures.tickets.basic);
      expect(fake.requests.map((r) => r.status)).toEqual([502, 200]);
      expect(fake.accepted).toHaveLength(1);
      await channel.close();
    });

    it("past a retry_after longer than the budget, queues the notifications instead of failing, and logs what closing loses", async () => {
      const { channel, logger } = await loadChatB(fake);
      fake.script({
        status: 429,
        json: { message: "You are being rate limited.", retry_after: 42.5, global: true },
        headers: { "x-ratelimit-global": "true" },
      });
      const started = Date.now();
      expect(await channel.notify("limited", fixtures.tickets.basic, { taskRunId: "run-1" })).toEqual({});
      expect(await channel.notify("still limited", fixtures.tickets.basic, { taskRunId: "run-2" })).toEqual({});
      expect(fake.requests).toHaveLength(1);
      expect(Date.now() - started).toBeLessThan(1000);
      await channel.close();
      expect(fake.requests).toHaveLength(1);
      const lost = logger.records.find(
        (r) => r.msg === "notifications lost: the channel closed before the room could take them",
      );
      expect(lost).toMatchObject({
        level: "error",
        room: "chat_b: the webhook",
        progress: 2,
        runIds: ["progress run-1", "progress run-2"],
      });
    });

    it("a call while the webhook is busy is answered once queued; the messages keep their order", async () => {
      const { channel } = await loadChatB(fake);
      // A first message shows the platform is up: from then on, a busy webhook takes calls at once.
      await channel.notify("warm-up", fixtures.tickets.basic);
      fake.script({ status: 502, json: { message: "Bad Gateway" } });
      const first = channel.notify("one", fixtures.tickets.basic);
      expect(
        await Promise.all([
          channel.notify("two", fixtures.tickets.basic),
          channel.notify("three", fixtures.tickets.basic),
        ]),
      ).toEqual([{}, {}]);
      expect(fake.accepted).toHaveLength(1);
      expect((await first).deliveryId).toMatch(/^\d+$/);
      await until(() => fake.accepted.length === 4, "4 messages");
      expect([description(1), description(2), description(3)]).toEqual(["one", "two", "three"]);
      await channel.close();
    });

    it("keeps the platform's real pace: 6 messages at 5 per 2 s, without a 429", async () => {
      await fake.close();
      fake = await startFakeDiscord();
      const { channel } = await loadChatB(fake, { digest_threshold: 1000 });
      const started = Date.now();
      await Promise.all(Array.from({ length: 6 }, (_, i) => channel.notify(`m${i}`, fixtures.tickets.basic)));
      await until(() => fake.accepted.length === 6, "6 messages");
      expect(fake.rateLimited).toBe(0);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1950);
      expect(Date.now() - started).toBeLessThan(3000);
      await channel.close();
    });
  });
});
