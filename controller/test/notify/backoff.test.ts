import { describe, expect, it } from "vitest";
import { createBackoff } from "../../src/notify/backoff.js";

describe("restart backoff", () => {
  it("doubles the ceiling from initialMs up to maxMs", () => {
    const top = createBackoff({ initialMs: 500, maxMs: 30_000, random: () => 0.999999 });
    expect([0, 1, 2, 3, 4, 5, 6, 7, 50].map((n) => top.delay(n))).toEqual([
      499, 999, 1999, 3999, 7999, 15_999, 29_999, 29_999, 29_999,
    ]);
  });

  it("spreads delays over the whole range below the ceiling (full jitter)", () => {
    const values = [0, 0.25, 0.5];
    const backoff = createBackoff({ initialMs: 1000, maxMs: 8000, random: () => values.shift()! });
    expect([backoff.delay(3), backoff.delay(3), backoff.delay(3)]).toEqual([0, 2000, 4000]);
  });

  it("defaults to 500 ms up to 30 s", () => {
    expect(createBackoff()).toMatchObject({ initialMs: 500, maxMs: 30_000 });
  });
});
