import { fixtures } from "@errand/channel-sdk/testing";
import type { RoomEvent } from "@errand/chat-kit";
import { describe, expect, it } from "vitest";
import { renderDigest } from "../src/render/digest.js";
import { embedsLength } from "../src/render/message.js";
import { validateMessage } from "./validate-message.js";

const { basic, minimal } = fixtures.tickets;

describe("the digest message", () => {
  it("has an embed per kind: starts with links and engine, completions with outcome and pull request or reason, each run's latest progress", () => {
    const events: RoomEvent[] = [
      { kind: "start", runId: "run-1", ticket: basic, engine: "claude-code" },
      { kind: "complete", runId: "run-2", ticket: basic, result: fixtures.results.success },
      { kind: "start", runId: "run-3", ticket: minimal, engine: "codex" },
      { kind: "complete", runId: "run-4", ticket: basic, result: fixtures.results.failure },
      { kind: "progress", runId: "run-5", ticket: basic, message: "Opened a *draft*\nnow testing" },
    ];
    const { message, taken } = renderDigest(events, { username: "Errand" });
    expect(taken).toBe(5);
    const link = "[\\#123 Login button does nothing on Safari](https://codehost.example.com/acme/webapp/issues/123)";
    expect(message).toEqual({
      content:
        "📋 5 notifications: 2 runs started, 2 runs finished, progress on 1 run. More came than the webhook takes, so they are combined here.",
      username: "Errand",
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: "🚀 2 runs started",
          color: 0x3b82f6,
          description: `• ${link}, using **claude-code**\n• \\#1, using **codex**`,
        },
        {
          title: "🏁 2 runs finished",
          color: 0x2eb67d,
          description: `• ✅ ${link}: [pull request](https://codehost.example.com/acme/webapp/pull/456)\n• ❌ ${link}: The test suite failed after 3 attempts: \\\`npm test\\\` exited with code 1 \\(2 failing tests in login.spec.ts\\).`,
        },
        { title: "💬 Progress on 1 run", color: 0x95a5a6, description: `• ${link}: Opened a \\*draft\\* now testing` },
      ],
    });
    expect(validateMessage(message as unknown as Record<string, unknown>)).toBeUndefined();
  });

  it("takes as many events of a long backlog as fit in one message, within the platform's limits, each on its own line", () => {
    const longUrl = `https://tracker.example.com/issues/${"x".repeat(1500)}`;
    const events: RoomEvent[] = Array.from({ length: 300 }, (_, i) => ({
      kind: "start",
      runId: `run-${i}`,
      ticket: { ...basic, id: String(i), externalUrl: i % 4 === 0 ? longUrl : basic.externalUrl },
      engine: "codex",
    }));
    const { message, taken } = renderDigest(events);
    expect(taken).toBeGreaterThan(2);
    expect(taken).toBeLessThan(300);
    expect(validateMessage(message as unknown as Record<string, unknown>)).toBeUndefined();
    expect(embedsLength(message.embeds)).toBeLessThanOrEqual(5900);
    const listed = message.embeds.flatMap((e) => e.description?.split("\n") ?? []);
    expect(listed.map((l) => /#(\d+)\b/.exec(l)?.[1])).toEqual(Array.from({ length: taken }, (_, i) => String(i)));
  });
});
