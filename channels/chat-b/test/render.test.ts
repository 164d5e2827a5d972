import { fixtures } from "@errand/channel-sdk/testing";
import { describe, expect, it } from "vitest";
import {
  type ChatBMessage,
  embedsLength,
  escapeMarkdown,
  renderComplete,
  renderNotify,
  renderStart,
} from "../src/index.js";
import { validateMessage } from "./validate-message.js";

const ctx = { taskRunId: "run-42" };
const who = { username: "Errand", avatarUrl: "https://cdn.example.com/errand.png" };
const json = (message: ChatBMessage) => `${JSON.stringify(message, null, 2)}\n`;

describe("rendered payloads (snapshots: the exact execute-webhook bodies)", () => {
  it("NotifyStart", async () => {
    await expect(json(renderStart(fixtures.tickets.basic, "claude-code", ctx, who))).toMatchFileSnapshot(
      "__snapshots__/start.json",
    );
  });
  it("NotifyComplete success", async () => {
    await expect(json(renderComplete(fixtures.tickets.basic, fixtures.results.success, ctx, who))).toMatchFileSnapshot(
      "__snapshots__/complete-success.json",
    );
  });
  it("NotifyComplete failure", async () => {
    await expect(json(renderComplete(fixtures.tickets.basic, fixtures.results.failure, ctx, who))).toMatchFileSnapshot(
      "__snapshots__/complete-failure.json",
    );
  });
  it("Notify", async () => {
    await expect(
      json(renderNotify("Opened a draft pull request; running the test suite now.", fixtures.tickets.basic, ctx, who)),
    ).toMatchFileSnapshot("__snapshots__/notify.json");
  });
  it("minimal ticket and result", async () => {
    await expect(json(renderComplete(fixtures.tickets.minimal, fixtures.results.minimalSuccess))).toMatchFileSnapshot(
      "__snapshots__/complete-minimal.json",
    );
  });
  it("unicode failure", async () => {
    await expect(json(renderComplete(fixtures.tickets.unicode, fixtures.results.unicode, ctx))).toMatchFileSnapshot(
      "__snapshots__/complete-unicode.json",
    );
  });
});

describe("limits", () => {
  it("every message passes the platform's validation, however long its input", () => {
    const t = fixtures.tickets;
    const r = fixtures.results;
    const messages: ChatBMessage[] = [];
    for (const ticket of [t.basic, t.unicode, t.longText, t.minimal]) {
      messages.push(
        renderStart(ticket, "e".repeat(500), { taskRunId: "r".repeat(3000) }),
        renderNotify(t.longText.description, ticket, ctx),
      );
      for (const result of [r.success, r.failure, r.minimalSuccess, r.longSummary, r.unicode])
        messages.push(renderComplete(ticket, result, ctx));
      messages.push(
        renderComplete(ticket, {
          ...r.failure,
          failureReason: "*_~".repeat(20_000),
          summary: "[x](y)".repeat(10_000),
          pullRequestUrl: `https://x.example/${"p".repeat(5000)}`,
        }),
      );
    }
    for (const message of messages) {
      expect(validateMessage(message as unknown as Record<string, unknown>)).toBeUndefined();
      expect(embedsLength(message.embeds)).toBeLessThanOrEqual(6000);
    }
  });

  it("links only well-formed http(s) URLs", () => {
    for (const externalUrl of [
      "javascript:alert(1)",
      "https://x.example/has space",
      `https://x.example/${"a".repeat(3000)}`,
    ]) {
      const ticket = { ...fixtures.tickets.basic, externalUrl, repoUrl: "" };
      for (const message of [
        renderStart(ticket, "e"),
        renderNotify("m", ticket),
        renderComplete(ticket, fixtures.results.failure),
      ]) {
        expect(validateMessage(message as unknown as Record<string, unknown>)).toBeUndefined();
        expect(JSON.stringify(message)).not.toContain("javascript:");
      }
    }
  });

  it("tells success from failure by colour and icon", () => {
    const ok = renderComplete(fixtures.tickets.basic, fixtures.results.success).embeds[0]!;
    const failed = renderComplete(fixtures.tickets.basic, fixtures.results.failure).embeds[0]!;
    expect(ok.color).not.toBe(failed.color);
    expect(ok.title.startsWith("✅")).toBe(true);
    expect(failed.title.startsWith("❌")).toBe(true);
    expect(failed.description).toContain("The test suite failed");
    expect(ok.url).toBe(fixtures.results.success.pullRequestUrl);
  });
});

describe("escaping", () => {
  it("shows user markdown as written and never pings", () => {
    expect(escapeMarkdown("**bold** _it_ `code` [x](https://evil) <@123> # h\n- item\n> quote")).toBe(
      "\\*\\*bold\\*\\* \\_it\\_ \\`code\\` \\[x\\]\\(https://evil\\) \\<@123\\> # h\n\\- item\n\\> quote",
    );
    const message = renderNotify("@everyone look", { ...fixtures.tickets.basic, title: "Fix [link](x)" });
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });
});
