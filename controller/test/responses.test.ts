import { describe, expect, it } from "vitest";
import { replyJson } from "../src/webhook/responses.js";

describe("reply bodies", () => {
  it("writes the accepted, duplicate and ignored shapes as JSON.stringify would", () => {
    for (const reply of [
      { status: "accepted" as const, tickets: ["1", 'we"ird\\id', "ü"] },
      { status: "accepted" as const, tickets: [], approvals: 2 },
      { status: "duplicate" as const },
      { status: "ignored" as const, reason: 'event "ping" is not ingested' },
    ]) {
      expect(JSON.parse(replyJson(reply))).toEqual(reply);
      expect(replyJson(reply)).toBe(JSON.stringify(reply));
    }
  });
});
