import { fixtures } from "@errand/channel-sdk/testing";
import type { RoomEvent } from "@errand/chat-kit";
import { describe, expect, it } from "vitest";
import { blocksTextLength } from "../src/render/blocks.js";
import { renderDigest } from "../src/render/digest.js";
import { validateBlocks } from "./validate-blocks.js";

const { basic, minimal } = fixtures.tickets;
const texts = (blocks: unknown[]) =>
  blocks.map(
    (b) =>
      (b as { text?: { text: string }; elements?: { text: string }[] }).text?.text
      ?? (b as { elements: { text: string }[] }).elements[0]!.text,
  );

describe("the digest message", () => {
  it("lists starts with links and engine, completions with outcome and pull request or reason, and each run's latest progress", () => {
    const events: RoomEvent[] = [
      { kind: "start", runId: "run-1", ticket: basic, engine: "claude-code" },
      { kind: "complete", runId: "run-2", ticket: basic, result: fixtures.results.success },
      { kind: "start", runId: "run-3", ticket: minimal, engine: "codex" },
      { kind: "complete", runId: "run-4", ticket: basic, result: fixtures.results.failure },
      { kind: "progress", runId: "run-5", ticket: basic, message: "Opened a draft <pull request>\nnow testing" },
    ];
    const { message, taken } = renderDigest(events);
    expect(taken).toBe(5);
    expect(message.text).toBe("5 notifications: 2 runs started, 2 runs finished, progress on 1 run");
    const link = "<https://codehost.example.com/acme/webapp/issues/123|#123 Login button does nothing on Safari>";
    expect(texts(message.blocks)).toEqual([
      "📋 5 notifications: 2 runs started, 2 runs finished, progress on 1 run",
      "More notifications came than the platform takes (one message a second per channel), so they are combined here.",
      `*:rocket: 2 runs started*\n• ${link}, using *claude-code*\n• #1, using *codex*`,
      `*:checkered_flag: 2 runs finished*\n• :white_check_mark: ${link}: <https://codehost.example.com/acme/webapp/pull/456|pull request>\n• :x: ${link}: The test suite failed after 3 attempts: \`npm test\` exited with code 1 (2 failing tests in login.spec.ts).`,
      `*:speech_balloon: Progress on 1 run*\n• ${link}: Opened a draft &lt;pull request&gt; now testing`,
    ]);
    expect(validateBlocks(message.blocks)).toEqual([]);
  });

  it("takes as many events of a long backlog as fit in one message, within the platform's limits, each on its own line", () => {
    const longUrl = `https://tracker.example.com/issues/${"x".repeat(1500)}`;
    const events: RoomEvent[] = Array.from({ length: 400 }, (_, i) => ({
      kind: "start",
      runId: `run-${i}`,
      ticket: { ...basic, id: String(i), externalUrl: i % 3 === 0 ? longUrl : basic.externalUrl },
      engine: "claude-code",
    }));
    const { message, taken } = renderDigest(events);
    expect(taken).toBeGreaterThan(2);
    expect(taken).toBeLessThan(400);
    expect(validateBlocks(message.blocks)).toEqual([]);
    expect(blocksTextLength(message.blocks)).toBeLessThanOrEqual(12_000);
    const listed = message.blocks.flatMap((b) =>
      b.type === "section" && b.text ? b.text.text.split("\n").filter((l) => l.startsWith("• ")) : [],
    );
    expect(listed).toHaveLength(taken);
    expect(listed.map((l) => /#(\d+) /.exec(l)?.[1])).toEqual(Array.from({ length: taken }, (_, i) => String(i)));
  });
});
