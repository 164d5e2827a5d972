import { describe, expect, it } from "vitest";
import { judgeArrivals } from "../src/conformance/checks/rate.js";

const rate = { perKey: 1, intervalMs: 500 };
const at = (...offsets: number[]) => offsets.map((ms) => 1_000_000 + ms);

describe("target.rate judges a burst on its arrival times", () => {
  it("accepts a throttled burst whose first requests were late (seen with both cores saturated)", () => {
    // Slots granted from ~150 ms; the first two requests waited for their connection.
    expect(judgeArrivals(at(790, 853, 1180, 1684, 2178, 2689, 3217), 1_000_000, rate)).toBeUndefined();
    expect(judgeArrivals(at(0, 500, 1000, 1500), 1_000_000, rate)).toBeUndefined();
    expect(judgeArrivals(at(0, 0, 500, 500), 1_000_000, { perKey: 2, intervalMs: 500 })).toBeUndefined();
  });

  it("refuses a burst sent at once, however late it started", () => {
    expect(judgeArrivals(at(5, 6, 7, 8, 9, 10, 11), 1_000_000, rate)).toMatchObject({ kind: "early", index: 1 });
    expect(judgeArrivals(at(3000, 3001, 3002, 3003), 1_000_000, rate)).toMatchObject({
      kind: "close",
      first: 0,
      second: 3,
    });
    expect(judgeArrivals(at(0, 0, 0, 500), 1_000_000, { perKey: 2, intervalMs: 500 })).toMatchObject({
      kind: "early",
      index: 2,
    });
  });

  it("refuses a channel that keeps the average but sends four at a time", () => {
    expect(judgeArrivals(at(0, 2000, 2000, 2000, 2000), 1_000_000, rate)).toMatchObject({ kind: "close" });
  });
});
