import { fixtures } from "@errand/channel-sdk/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { until } from "../../../test/support/until.js";
import { type FakeSlack, startFakeSlack } from "./fake-slack.js";
import { loadChatA, rejectionOf, TOKEN } from "./helpers.js";

let fake: FakeSlack;
beforeEach(async () => {
  fake = await startFakeSlack({ intervalMs: 100 });
});
afterEach(async () => {
  await fake.close();
});

describe("chat_a in-process against the fake platform", () => {
  it("delivers all four messages with the token, JSON in UTF-8 and the right channel", async () => {
    const { channel, logger } = await loadChatA(fake, { min_interval_ms: 100 });
    const start = await channel.notifyStart(fixtures.tickets.basic, { engine: "claude-code", taskRunId: "run-1" });
    await channel.notifyComplete(fixtures.tickets.basic, fixtures.results.success, { taskRunId: "run-1" });
    await channel.notifyComplete(fixtures.tickets.basic, fixtures.results.failure, { taskRunId: "run-1" });
    await channel.notify("halfway there", fixtures.tickets.basic, { taskRunId: "run-1" });
    expect(start.deliveryId).toMatch(/^C0000000001\/\d+\.\d{6}$/);
    expect(fake.accepted.map((m) => m.text)).toEqual([
      "Agent started working on: #123 Login button does nothing on Safari, using claude-code",
      "Completed: #123 Login button does nothing on Safari (pull request: https://codehost.example.com/acme/webapp/pull/456)",
      expect.stringMatching(/^Failed: #123 Login button does nothing on Safari: The test suite failed/),
      "#123 Login button does nothing on Safari: halfway there",
    ]);
    const request = fake.requests[0]!;
    expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(request.answer).not.toHaveProperty("warning");
    expect(JSON.stringify(logger.records)).not.toContain(TOKEN);
    await channel.close();
  });

  it("delivers unicode and extreme lengths intact and within limits", async () => {
    const { channel } = await loadChatA(fake, { min_interval_ms: 100 });
    await channel.notifyComplete(fixtures.tickets.unicode, fixtures.results.unicode);
    await channel.notify(fixtures.tickets.longText.description, fixtures.tickets.longText);
    await channel.notifyComplete(fixtures.tickets.longText, fixtures.results.longSummary);
    expect(fake.accepted).toHaveLength(3);
    expect(JSON.stringify(fake.accepted[0]!.blocks)).toContain("👩🏽‍💻 👨‍👩‍👧‍👦 🇯🇵");
    await channel.close();
  });

  describe("the platform's errors become clear, final errors with a hint (never retried)", () => {
    const cases = [
      {
        name: "unknown token",
        secrets: { "chat-a-token": "xoxb-wrong" },
        config: {},
        code: "ERR_UNAUTHENTICATED",
        text: "invalid_auth",
        hint: "chat-a-token",
      },
      {
        name: "a user token where a bot token belongs",
        secrets: { "chat-a-token": "xoxp-user-token-value" },
        config: {},
        code: "ERR_UNAUTHENTICATED",
        text: "invalid_auth",
        hint: "xoxb",
      },
      {
        name: "unknown channel",
        config: { channel_id: "C9999999999" },
        code: "ERR_NOT_FOUND",
        text: "channel_not_found",
        hint: "/invite",
      },
      {
        name: "bot not in channel",
        config: { channel_id: "C0000000003" },
        code: "ERR_PERMISSION_DENIED",
        text: "not_in_channel",
        hint: "/invite",
      },
      {
        name: "archived channel",
        config: { channel_id: "C0000000004" },
        code: "ERR_PERMISSION_DENIED",
        text: "is_archived",
        hint: "unarchive",
      },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const { channel, logger } = await loadChatA(fake, { min_interval_ms: 100, ...c.config }, c.secrets);
        const error = await rejectionOf(channel.notifyStart(fixtures.tickets.basic, { engine: "e" }));
        expect(error.code).toBe(c.code);
        expect(error.message).toContain(c.text);
        expect(error.hint).toContain(c.hint);
        expect(fake.requests).toHaveLength(1);
        const seen = JSON.stringify([error.message, error.hint, logger.records]);
        for (const secret of Object.values(c.secrets ?? { t: TOKEN })) expect(seen).not.toContain(secret);
        await channel.close();
      });
    }

    it("a token without chat:write: missing_scope names the scope", async () => {
      await fake.close();
      fake = await startFakeSlack({ tokens: { "xoxb-read-only": ["channels:read"] } });
      const { channel } = await loadChatA(fake, { min_interval_ms: 100 }, { "chat-a-token": "xoxb-read-only" });
      const error = await rejectionOf(channel.notify("hi", fixtures.tickets.basic));
      expect(error.code).toBe("ERR_PERMISSION_DENIED");
      expect(error.message).toContain("lacks the chat:write scope (it has: channels:read)");
      expect(error.hint).toContain("OAuth & Permissions");
      await channel.close();
    });
  });

  it("a token with a line break, NUL or non-ASCII character is refused at start, not on every notification", async () => {
    for (const token of [`${TOKEN}\nsecond-line`, `${TOKEN}\u0000`, `${TOKEN}✓`]) {
      const error = await rejectionOf(loadChatA(fake, { min_interval_ms: 100 }, { "chat-a-token": token }));
      expect(error.code).toBe("ERR_INVALID_CONFIG");
      expect(error.message).toContain('the secret "chat-a-token" named by token_secret contains');
      expect(error.hint).toContain("copy the bot token");
      expect(`${error.message} ${error.hint}`).not.toContain(TOKEN);
    }
    expect(fake.requests).toHaveLength(0);
    // A file's trailing newline is not a problem: the token works.
    const { channel } = await loadChatA(fake, { min_interval_ms: 100 }, { "chat-a-token": `${TOKEN}\n` });
    await channel.notify("hi", fixtures.tickets.basic);
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    await channel.close();
  });

  describe("transient failures", () => {
    it("retries a 5xx and an internal_error, then delivers once", async () => {
      const { channel, logger } = await loadChatA(fake, { min_interval_ms: 100 });
      fake.script({ status: 503 }, { status: 200, error: "internal_error" });
      await channel.notify("after two failures", fixtures.tickets.basic);
      expect(fake.requests.map((r) => r.status)).toEqual([503, 200, 200]);
      expect(fake.accepted).toHaveLength(1);
      expect(logger.records.filter((r) => r.msg === "retrying chat.postMessage")).toHaveLength(2);
      await channel.close();
    });

    it("honours a 429's Retry-After before trying again", async () => {
      const { channel } = await loadChatA(fake, { min_interval_ms: 100 });
      fake.script({ status: 429, error: "ratelimited", retryAfterSeconds: 1 });
      const started = Date.now();
      await channel.notify("after a 429", fixtures.tickets.basic);
      expect(fake.requests).toHaveLength(2);
      expect(fake.requests[1]!.receivedAt - fake.requests[0]!.receivedAt).toBeGreaterThanOrEqual(950);
      expect(Date.now() - started).toBeLessThan(5000);
      await channel.close();
    });

    it("gives up within the 5-second call target when the platform stays down", async () => {
      const { channel } = await loadChatA(fake, { min_interval_ms: 100 });
      fake.script(...Array.from({ length: 20 }, () => ({ status: 503 })));
      const started = Date.now();
      const error = await rejectionOf(channel.notify("down", fixtures.tickets.basic));
      expect(error.code).toBe("ERR_UNAVAILABLE");
      expect(Date.now() - started).toBeLessThan(5000);
      await channel.close();
    });

    it("past a Retry-After longer than the budget, queues the notifications instead of failing, and logs what closing loses", async () => {
      const { channel, logger } = await loadChatA(fake, { min_interval_ms: 100 });
      fake.script({ status: 429, error: "ratelimited", retryAfterSeconds: 30 });
      const started = Date.now();
      // The first call meets the 429 itself; the second finds the channel paused. Neither waits 30 s.
      expect(await channel.notifyStart(fixtures.tickets.basic, { engine: "e", taskRunId: "run-1" })).toEqual({});
      expect(
        await channel.notifyComplete(fixtures.tickets.basic, fixtures.results.success, { taskRunId: "run-1" }),
      ).toEqual({});
      expect(Date.now() - started).toBeLessThan(1000);
      expect(fake.requests).toHaveLength(1);
      await channel.close();
      expect(fake.requests).toHaveLength(1);
      const lost = logger.records.find(
        (r) => r.msg === "notifications lost: the channel closed before the room could take them",
      );
      expect(lost).toMatchObject({
        level: "error",
        room: "chat_a: channel C0000000001",
        starts: 1,
        completes: 1,
        runIds: ["start run-1", "complete run-1"],
      });
    });
  });

  describe("pace and cancellation", () => {
    it("with digests out of reach, a burst of 12 to one channel arrives in order, spaced, without a single 429", async () => {
      const { channel } = await loadChatA(fake, { min_interval_ms: 100, digest_threshold: 1000 });
      await Promise.all(Array.from({ length: 12 }, (_, i) => channel.notify(`message ${i}`, fixtures.tickets.basic)));
      await until(() => fake.accepted.length === 12, "12 messages");
      expect(fake.rateLimited).toBe(0);
      expect(fake.accepted.map((m) => m.text.split(": ").at(-1))).toEqual(
        Array.from({ length: 12 }, (_, i) => `message ${i}`),
      );
      const gaps = fake.accepted.slice(1).map((m, i) => m.receivedAt - fake.accepted[i]!.receivedAt);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(90);
      await channel.close();
    });

    it("recovers from 429s when the platform is stricter than the configured pace", async () => {
      await fake.close();
      fake = await startFakeSlack({ intervalMs: 300, toleranceMs: 0 });
      const { channel } = await loadChatA(fake, { min_interval_ms: 100, digest_threshold: 1000 });
      await Promise.all(Array.from({ length: 4 }, (_, i) => channel.notify(`m${i}`, fixtures.tickets.basic)));
      await until(() => fake.accepted.length === 4, "4 messages");
      expect(fake.rateLimited).toBeGreaterThan(0);
      expect(fake.accepted.map((m) => m.text.split(": ").at(-1))).toEqual(["m0", "m1", "m2", "m3"]);
      await channel.close();
    });

    it("a call while the channel is busy is answered once queued, before its message is sent; the messages keep their order", async () => {
      const { channel } = await loadChatA(fake, { min_interval_ms: 300 });
      // A first message shows the platform is up: from then on, a busy channel takes calls at once.
      await channel.notify("warm-up", fixtures.tickets.basic);
      const first = channel.notify("one", fixtures.tickets.basic);
      const [second, third] = await Promise.all([
        channel.notify("two", fixtures.tickets.basic),
        channel.notify("three", fixtures.tickets.basic),
      ]);
      // Queued: no platform id yet, and nothing of theirs has reached the platform.
      expect([second, third]).toEqual([{}, {}]);
      expect(fake.accepted.map((m) => m.text.split(": ").at(-1))).not.toContain("two");
      expect((await first).deliveryId).toMatch(/^C0000000001\//);
      await until(() => fake.accepted.length === 4, "4 messages");
      expect(fake.accepted.map((m) => m.text.split(": ").at(-1))).toEqual(["warm-up", "one", "two", "three"]);
      await channel.close();
    });

    it("a hanging platform is abandoned at the call's deadline", async () => {
      const { channel } = await loadChatA(fake, { min_interval_ms: 100 });
      fake.script({ hang: true }, { hang: true }, { hang: true });
      const started = Date.now();
      const error = await rejectionOf(channel.notify("hang", fixtures.tickets.basic, { timeoutMs: 1500 }));
      expect(["ERR_DEADLINE_EXCEEDED", "ERR_UNAVAILABLE"]).toContain(error.code);
      expect(Date.now() - started).toBeLessThan(2500);
      await channel.close();
    });
  });

  it("keeps the platform's real pace of 1 message per second per channel, per channel", async () => {
    await fake.close();
    fake = await startFakeSlack({ intervalMs: 1000 });
    const a = await loadChatA(fake, { channel_id: "C0000000001" });
    const b = await loadChatA(fake, { channel_id: "C0000000002" });
    const started = Date.now();
    await Promise.all([
      ...[1, 2, 3].map((i) => a.channel.notify(`a${i}`, fixtures.tickets.basic)),
      b.channel.notify("b1", fixtures.tickets.basic),
    ]);
    await until(() => fake.accepted.length === 4, "4 messages");
    const elapsed = Date.now() - started;
    expect(fake.rateLimited).toBe(0);
    const times = fake.accepted.filter((m) => m.channel === "C0000000001").map((m) => m.receivedAt);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(990);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(990);
    expect(elapsed).toBeGreaterThanOrEqual(1990);
    // The other channel did not wait for the first one.
    const b1 = fake.accepted.find((m) => m.channel === "C0000000002")!;
    expect(b1.receivedAt - started).toBeLessThan(500);
    await Promise.all([a.channel.close(), b.channel.close()]);
  });
});
