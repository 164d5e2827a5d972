import { CancelledError, RateLimitedError, UnavailableError } from "@errand/channel-sdk";
import { createHttpClient } from "@errand/channel-sdk/helpers";
import { type Sink, startSink } from "@errand/channel-sdk/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { failure } from "../../../test/support/failure.js";
import { createDeliveryLane, type Pacer } from "../src/delivery-lane.js";

const since = (start: number) => performance.now() - start;

let sink: Sink;
beforeEach(async () => void (sink = await startSink()));
afterEach(() => sink.close());

const http = createHttpClient({ retry: false });
/** One attempt: a POST of `{ n }` with the lane's signal and timeout. */
const post =
  (n: number, path = "/c") =>
  (attempt: { signal: AbortSignal; timeoutMs: number }) =>
    http.postJson(`${sink.url}${path}`, { n }, { signal: attempt.signal, timeoutMs: attempt.timeoutMs });
const sent = () => sink.requests.map((r) => [(r.json as { n: number }).n, r.status]);

describe("createDeliveryLane", () => {
  it("delivers in call order even when the first send is retried", async () => {
    sink.behave([{ status: 503, times: 1 }, {}]);
    const lane = createDeliveryLane({ intervalMs: 30, retry: { baseDelayMs: 1 } });
    const retried: number[] = [];
    await Promise.all([1, 2, 3].map((n) => lane.send("k", post(n), { onRetry: (e) => retried.push(e.attempt) })));
    expect(sent()).toEqual([
      [1, 503],
      [1, 200],
      [2, 200],
      [3, 200],
    ]);
    expect(retried).toEqual([1]);
    expect(lane.waiting("k")).toBe(0);
  });

  it("spaces sends of a key from the previous answer, and leaves other keys alone", async () => {
    sink.behave([{ delayMs: 300, times: 1 }, {}], { path: "/c" });
    const lane = createDeliveryLane({ intervalMs: 150 });
    const start = Date.now();
    await Promise.all([lane.send("k", post(1)), lane.send("k", post(2)), lane.send("other", post(3, "/other"))]);
    const at = (n: number) => sink.requests.find((r) => (r.json as { n: number }).n === n)!.receivedAt;
    // The first answer came after 300 ms; the next send waits 150 ms from there.
    expect(at(2) - at(1)).toBeGreaterThanOrEqual(300 + 150 - 10);
    expect(at(3) - start).toBeLessThan(150);
  });

  it("after a long Retry-After, fails at once without sending, instead of waiting for the deadline", async () => {
    sink.behave({ status: 429, retryAfter: 30 });
    const lane = createDeliveryLane({ intervalMs: 10, name: "chat: channel C1" });
    const start = performance.now();
    const first = await failure(lane.send("C1", post(1)));
    expect(first).toBeInstanceOf(RateLimitedError);
    expect(first.retryAfterMs).toBe(30_000);
    const next = await failure(lane.send("C1", post(2)));
    expect(next).toBeInstanceOf(RateLimitedError);
    expect(next.message).toMatch(
      /^chat: channel C1 is rate-limited for another \d+ ms, longer than the call may wait$/,
    );
    expect(next.retryAfterMs).toBeGreaterThan(29_000);
    expect(sink.requests).toHaveLength(1);
    expect(since(start)).toBeLessThan(500);
  });

  it("against a persistent 5xx, gives up within the budget with the target's error, not a deadline", async () => {
    sink.behave({ status: 503, json: { ok: false, error: "service_unavailable" } });
    const lane = createDeliveryLane({ intervalMs: 50, budgetMs: 1000, retry: { baseDelayMs: 50 } });
    const start = performance.now();
    const error = await failure(lane.send("k", post(1)));
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.message).toMatch(
      /^gave up after \d+ attempts in \d+ ms \(.*\); last error: POST .* answered HTTP 503/,
    );
    expect(since(start)).toBeLessThan(1000);
    expect(sink.requests.length).toBeGreaterThanOrEqual(2);
  });

  it("gives each attempt a timeout cut to the budget, so a hanging target ends as unavailable within it", async () => {
    sink.behave({ hang: true });
    const lane = createDeliveryLane({ intervalMs: 10, budgetMs: 800, attemptTimeoutMs: 5000 });
    const start = performance.now();
    const error = await failure(lane.send("k", post(1)));
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.message).toMatch(/got no complete answer within \d+ ms$/);
    expect(since(start)).toBeGreaterThanOrEqual(600);
    expect(since(start)).toBeLessThan(800 + 200);
  });

  it("lets a queued send be cancelled; the others keep their order", async () => {
    const lane = createDeliveryLane({ intervalMs: 50 });
    const controller = new AbortController();
    const first = lane.send("k", post(1));
    const second = lane.send("k", post(2), { signal: controller.signal });
    const third = lane.send("k", post(3));
    expect(lane.waiting("k")).toBe(2);
    controller.abort();
    expect(await failure(second)).toBeInstanceOf(CancelledError);
    await Promise.all([first, third]);
    expect(sent()).toEqual([
      [1, 200],
      [3, 200],
    ]);
  });

  it("runs on any pacer: waits for its slot, ends the slot, and pauses it after a 429", async () => {
    sink.behave([{ status: 429, json: { retry_after: 0.2 }, times: 1 }, {}]);
    const calls: string[] = [];
    let pausedUntil = 0;
    const pacer: Pacer = {
      msUntilSlot: () => Math.max(0, pausedUntil - Date.now()),
      async wait(key) {
        calls.push(`wait ${key}`);
        const ms = pausedUntil - Date.now();
        if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
        return () => calls.push(`end ${key}`);
      },
      penalize(key, ms) {
        calls.push(`penalize ${key} ${ms}`);
        pausedUntil = Math.max(pausedUntil, Date.now() + ms);
      },
    };
    const lane = createDeliveryLane({ pacer });
    expect(lane.pacer).toBe(pacer);
    await lane.send("hook", post(1));
    expect(calls).toEqual(["wait hook", "penalize hook 200", "end hook", "wait hook", "end hook"]);
    expect(sink.requests[1]!.receivedAt - sink.requests[0]!.receivedAt).toBeGreaterThanOrEqual(190);
  });

  it("wants exactly one of intervalMs and pacer", () => {
    expect(() => createDeliveryLane({})).toThrow(RangeError);
    expect(() =>
      createDeliveryLane({ intervalMs: 1, pacer: { msUntilSlot: () => 0, wait: async () => {}, penalize: () => {} } }),
    ).toThrow(/exactly one/);
  });
});
