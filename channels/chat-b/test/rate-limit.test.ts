import { describe, expect, it } from "vitest";
import { readRateLimit, WebhookBucket } from "../src/index.js";

describe("WebhookBucket", () => {
  it("reads the platform's headers, relative reset first", () => {
    expect(
      readRateLimit({
        "x-ratelimit-limit": "5",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset-after": "1.234",
        "x-ratelimit-bucket": "abc",
      }),
    ).toEqual({
      limit: 5,
      remaining: 0,
      resetAfterMs: 1234,
      bucket: "abc",
    });
    expect(readRateLimit({ "x-ratelimit-remaining": "soon" })).toEqual({
      limit: undefined,
      remaining: undefined,
      resetAfterMs: undefined,
      bucket: undefined,
    });
  });

  it("waits for the reset once no request remains, not before", () => {
    const bucket = new WebhookBucket();
    bucket.update({ "x-ratelimit-remaining": "1", "x-ratelimit-reset-after": "1.5" }, 1000);
    expect(bucket.waitMs(1000)).toBe(0);
    bucket.update({ "x-ratelimit-remaining": "0", "x-ratelimit-reset-after": "1.5" }, 1000);
    expect(bucket.waitMs(1000)).toBe(1500);
    expect(bucket.waitMs(2600)).toBe(0);
  });

  it("without headers, keeps to 5 requests per 2 s", () => {
    const bucket = new WebhookBucket();
    for (const t of [0, 10, 20, 30]) bucket.sending(t);
    expect(bucket.waitMs(40)).toBe(0);
    bucket.sending(40);
    expect(bucket.waitMs(50)).toBe(1950);
    expect(bucket.waitMs(2000)).toBe(0);
  });

  it("a 429's retry_after pauses it; a shorter pause never shortens a longer one", () => {
    const bucket = new WebhookBucket();
    bucket.pause(3000, 0);
    bucket.pause(1000, 0);
    expect(bucket.waitMs(0)).toBe(3000);
  });
});
