import { describe, expect, it } from "vitest";
import { parseRetryAfter, parseRetryAfterBody } from "../../src/helpers/retry-after.js";

describe("parseRetryAfter", () => {
  const now = Date.parse("2025-01-02T03:04:05Z");

  it.each([
    ["3", 3000],
    ["0", 0],
    [" 120 ", 120_000],
    ["1.5", 1500],
    ["0.001", 1],
  ])("reads delay-seconds %j as %d ms", (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });

  it("reads an HTTP date relative to now", () => {
    expect(parseRetryAfter("Thu, 02 Jan 2025 03:04:35 GMT", now)).toBe(30_000);
  });

  it("gives 0 for a date in the past", () => {
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:00 GMT", now)).toBe(0);
  });

  it.each([undefined, null, "", "soon", "-1", "1,5", "1e3", "tomorrow at noon", "NaN"])(
    "returns undefined for %j",
    (value) => {
      expect(parseRetryAfter(value, now)).toBeUndefined();
    },
  );

  it("takes the first value of a repeated header and accepts numbers", () => {
    expect(parseRetryAfter(["2", "9"], now)).toBe(2000);
    expect(parseRetryAfter(0.25)).toBe(250);
    expect(parseRetryAfter(-1)).toBeUndefined();
  });
});

describe("parseRetryAfterBody", () => {
  it("reads chat B's float seconds", () => {
    expect(parseRetryAfterBody({ message: "You are being rate limited.", retry_after: 0.337, global: false })).toBe(
      337,
    );
  });

  it("reads a numeric string and a nested parameters.retry_after", () => {
    expect(parseRetryAfterBody({ retry_after: "2" })).toBe(2000);
    expect(parseRetryAfterBody({ ok: false, parameters: { retry_after: 3 } })).toBe(3000);
  });

  it.each([undefined, null, "retry_after", 5, {}, { retry_after: "soon" }, { retry_after: -2 }])(
    "returns undefined for %j",
    (body) => {
      expect(parseRetryAfterBody(body)).toBeUndefined();
    },
  );
});
