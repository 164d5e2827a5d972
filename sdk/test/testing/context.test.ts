import { describe, expect, it } from "vitest";
import type { TaskResult, Ticket } from "../../src/channel.js";
import { CancelledError, DeadlineExceededError, toChannelError } from "../../src/errors.js";
import { captureLogger } from "../../src/testing/capture-logger.js";
import { fixtures } from "../../src/testing/fixtures.js";
import { createTestContext } from "../../src/testing/test-context.js";

describe("fixtures", () => {
  const ticketNames = ["basic", "unicode", "longText", "minimal"] as const;
  const resultNames = ["success", "failure", "minimalSuccess", "longSummary", "unicode"] as const;

  it("returns a fresh deep copy on every access", () => {
    const a = fixtures.tickets.basic;
    a.labels.push("mutated");
    a.title = "changed";
    (a.rawEvent as { action: string }).action = "changed";
    const b = fixtures.tickets.basic;
    expect(b.labels).toEqual(["bug", "frontend", "p2"]);
    expect(b.title).toBe("Login button does nothing on Safari");
    expect(b.rawEvent).toMatchObject({ action: "labeled" });
    const r = fixtures.results.success;
    r.tokenUsage!.inputTokens = 0;
    expect(fixtures.results.success.tokenUsage?.inputTokens).toBe(123_456);
  });

  it("has every ticket field, with well-formed strings", () => {
    const keys: (keyof Ticket)[] = [
      "id",
      "title",
      "description",
      "ticketType",
      "repoUrl",
      "externalUrl",
      "labels",
      "source",
    ];
    for (const name of ticketNames) {
      const ticket = fixtures.tickets[name];
      for (const key of keys) expect(ticket, `${name}.${key}`).toHaveProperty(key);
      for (const text of [ticket.title, ticket.description, ...ticket.labels]) expect(text.isWellFormed()).toBe(true);
    }
  });

  it("makes the hard cases hard", () => {
    const { unicode, longText, minimal } = fixtures.tickets;
    expect(unicode.title).toMatch(/\u200d/); // ZWJ sequence
    expect(unicode.title).toMatch(/[\u0590-\u05ff]/); // Hebrew
    expect(unicode.title).toMatch(/[\u0600-\u06ff]/); // Arabic
    expect(unicode.title).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/); // CJK
    expect(unicode.title).toMatch(/\u0301/); // combining mark
    expect(longText.title.length).toBeGreaterThanOrEqual(10_000);
    expect(longText.description.length).toBeGreaterThanOrEqual(100_000);
    expect(minimal).toEqual({
      id: "1",
      title: "",
      description: "",
      ticketType: "",
      repoUrl: "",
      externalUrl: "",
      labels: [],
      source: "",
    });
  });

  it("has results for success, failure and the edge cases", () => {
    const { success, failure, longSummary, unicode } = fixtures.results;
    const minimalSuccess: TaskResult = fixtures.results.minimalSuccess;
    expect(success).toMatchObject({ success: true, pullRequestUrl: expect.stringMatching(/^https:/) });
    expect(success.costUsd).toBeGreaterThan(0);
    expect(success.durationMs).toBeGreaterThan(0);
    expect(failure).toMatchObject({ success: false, failureReason: expect.stringContaining("failed") });
    const unknown: (keyof TaskResult)[] = ["costUsd", "durationMs", "tokenUsage"];
    for (const key of unknown) expect(minimalSuccess[key]).toBeUndefined();
    expect(longSummary.summary.length).toBeGreaterThanOrEqual(50_000);
    expect(unicode.failureReason.isWellFormed()).toBe(true);
    for (const name of resultNames) expect(typeof fixtures.results[name].success).toBe("boolean");
  });
});

describe("captureLogger", () => {
  it("records levels, messages and fields of the logger and its children", () => {
    const logger = captureLogger();
    logger.debug("d");
    logger.child({ channel: "chat_a" }).warn("retrying", { attempt: 2 });
    expect(logger.records).toMatchObject([
      { level: "debug", msg: "d" },
      { level: "warn", msg: "retrying", channel: "chat_a", attempt: 2 },
    ]);
    expect(logger.lines[1]).toMatch(/^\{"@level":"warn","@message":"retrying","@timestamp":".+".*\}\n$/);
    logger.clear();
    expect(logger.records).toEqual([]);
  });

  it("honours the level and masks secrets like the plugin's logger", () => {
    const logger = captureLogger({ level: "info", secrets: ["xoxb-very-secret"] });
    logger.debug("dropped");
    logger.error("failed with token xoxb-very-secret", { header: "Bearer xoxb-very-secret" });
    expect(logger.records).toHaveLength(1);
    expect(JSON.stringify(logger.records)).not.toContain("xoxb-very-secret");
    expect(logger.records[0]).toMatchObject({ msg: "failed with token [redacted]", header: "Bearer [redacted]" });
  });
});

describe("createTestContext", () => {
  it("builds a handler context with defaults", () => {
    const ctx = createTestContext();
    expect(ctx).toMatchObject({ taskRunId: "run-test-1", engine: "test-engine", config: {}, secrets: {} });
    expect(ctx.signal.aborted).toBe(false);
    expect(ctx.state).toBeUndefined();
  });

  it("carries config, secrets, state and a logger that masks the secrets", () => {
    const state = { client: "api" };
    const ctx = createTestContext({
      config: { channel: "C1" },
      secrets: { token: "xoxb-abcdef" },
      state,
      taskRunId: "r-9",
    });
    expect(ctx.state).toBe(state);
    expect(ctx.config).toEqual({ channel: "C1" });
    expect(ctx.secrets.token).toBe("xoxb-abcdef");
    expect(Object.isFrozen(ctx.secrets)).toBe(true);
    ctx.logger.info("posting with xoxb-abcdef");
    expect(ctx.logger.records[0]?.msg).toBe("posting with [redacted]");
  });

  it("aborts with a CancelledError-mapped reason when the test cancels", () => {
    const ctx = createTestContext();
    ctx.abort();
    expect(ctx.signal.aborted).toBe(true);
    expect(toChannelError(ctx.signal.reason)).toBeInstanceOf(CancelledError);
  });

  it("aborts with DeadlineExceededError when its deadline passes", async () => {
    const ctx = createTestContext({ timeoutMs: 50 });
    await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
    expect(ctx.signal.reason).toBeInstanceOf(DeadlineExceededError);
    expect(createTestContext({ timeoutMs: 0 }).signal.aborted).toBe(false);
  });

  it("follows an extra signal", () => {
    const controller = new AbortController();
    const ctx = createTestContext({ signal: controller.signal });
    controller.abort(new CancelledError("test over"));
    expect(ctx.signal.reason).toBeInstanceOf(CancelledError);
  });
});
