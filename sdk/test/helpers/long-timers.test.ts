import { afterEach, describe, expect, it, vi } from "vitest";
import { failure } from "../../../test/support/failure.js";
import { CancelledError, InvalidArgumentError, RateLimitedError, UnavailableError } from "../../src/errors.js";
import { createHttpClient } from "../../src/helpers/http.js";
import { retry } from "../../src/helpers/retry.js";
import { sleep } from "../../src/helpers/sleep.js";
import { createThrottle } from "../../src/helpers/throttle.js";
import { type Sink, startSink } from "../../src/testing/sink.js";

// Node holds at most 2^31-1 ms in a timer and runs a longer one after 1 ms.
const BEYOND_TIMERS = 3_000_000_000;
const THIRTY_DAYS = 30 * 24 * 3600_000;
const realSetTimeout = globalThis.setTimeout;
const pause = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms));

/** setTimeout calls, TimeoutOverflowWarnings and CPU milliseconds during `ms` of idling. */
async function idleCost(ms: number): Promise<{ timers: number; warnings: number; cpuMs: number }> {
  let warnings = 0;
  const onWarning = (warning: Error) => {
    if (warning.name === "TimeoutOverflowWarning") warnings++;
  };
  process.on("warning", onWarning);
  const spy = vi.spyOn(globalThis, "setTimeout");
  const cpu = process.cpuUsage();
  await pause(ms);
  const used = process.cpuUsage(cpu);
  const timers = spy.mock.calls.length;
  spy.mockRestore();
  process.off("warning", onWarning);
  return { timers, warnings, cpuMs: (used.user + used.system) / 1000 };
}

describe("delays longer than a Node timer holds", () => {
  let sink: Sink | undefined;
  afterEach(async () => {
    await sink?.close();
    sink = undefined;
  });

  it("a throttle paused for 30 days waits without spinning, and its waiter can still leave", async () => {
    const throttle = createThrottle({ intervalMs: 1000 });
    throttle.penalize("chan", THIRTY_DAYS);
    const controller = new AbortController();
    const waiting = throttle.wait("chan", controller.signal).catch((e: unknown) => e);
    const cost = await idleCost(1000);
    expect(cost.timers).toBeLessThanOrEqual(5);
    expect(cost.warnings).toBe(0);
    expect(cost.cpuMs).toBeLessThan(60);
    expect(throttle.msUntilSlot("chan")).toBeGreaterThan(THIRTY_DAYS - 10_000);
    expect(throttle.pending("chan")).toBe(1);
    controller.abort(new CancelledError("gave up"));
    expect(await waiting).toBeInstanceOf(CancelledError);
  });

  it("a 429 with Retry-After: 3000000 fails the request at once and leaves nothing spinning", async () => {
    sink = await startSink({ behaviour: { status: 429, retryAfter: 3_000_000 } });
    const throttle = createThrottle({ intervalMs: 1000 });
    const http = createHttpClient({ throttle });
    const error = await failure(http.postJson(`${sink.url}/hook`, { text: "hi" }, { throttleKey: "hook" }));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryAfterMs).toBe(3_000_000_000);
    // Let the first request's one-off work (V8 compiling undici) settle before measuring.
    await pause(300);
    const cost = await idleCost(1000);
    expect(cost.timers).toBeLessThanOrEqual(10);
    expect(cost.warnings).toBe(0);
    expect(cost.cpuMs).toBeLessThan(60);
  });

  it("retry honours a budget longer than a timer holds instead of running out after 1 ms", async () => {
    let attempts = 0;
    const result = await retry(
      async () => {
        if (++attempts === 1) throw new UnavailableError("503");
        return "delivered";
      },
      { budgetMs: BEYOND_TIMERS, baseDelayMs: 40, random: () => 0.99 },
    );
    expect({ result, attempts }).toEqual({ result: "delivered", attempts: 2 });
  });

  it("sleep waits for a delay longer than a timer holds until its signal aborts", async () => {
    const controller = new AbortController();
    realSetTimeout(() => controller.abort(new CancelledError("enough")), 100);
    const started = performance.now();
    const error = await failure(sleep(BEYOND_TIMERS, controller.signal));
    expect(error).toBeInstanceOf(CancelledError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
  });

  it("an HTTP timeoutMs longer than a timer holds is capped, not a timeout after 1 ms", async () => {
    sink = await startSink({ behaviour: { delayMs: 100, json: { ok: true } } });
    const http = createHttpClient({ timeoutMs: BEYOND_TIMERS, retry: false });
    await expect(http.get(`${sink.url}/slow`)).resolves.toMatchObject({ status: 200 });
  });
});

describe("delays that are not numbers are refused with InvalidArgumentError", () => {
  it("sleep", async () => {
    for (const ms of [Number.NaN, Infinity, "100" as unknown as number]) {
      const error = await failure(sleep(ms));
      expect(error, String(ms)).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toMatch(/^sleep: ms must be a finite number of milliseconds/);
    }
    await expect(sleep(-5)).resolves.toBeUndefined();
  });

  it("retry's options, before the first attempt", async () => {
    const fn = vi.fn(async () => "x");
    for (const [options, pattern] of [
      [{ budgetMs: Number.NaN }, /^retry: budgetMs must be a finite number of milliseconds >= 0, got NaN/],
      [{ budgetMs: Infinity }, /^retry: budgetMs must be a finite number/],
      [{ maxDelayMs: -1 }, /^retry: maxDelayMs must be/],
      [{ maxAttempts: 0 }, /^retry: maxAttempts must be an integer >= 1, got 0/],
    ] as const) {
      const error = await failure(retry(fn, options));
      expect(error, JSON.stringify(options)).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toMatch(pattern);
      expect(error.hint).toBeTruthy();
    }
    expect(fn).not.toHaveBeenCalled();
  });

  it("the HTTP client's timeoutMs", async () => {
    const http = createHttpClient({ timeoutMs: Number.NaN, retry: false });
    const error = await failure(http.get("http://127.0.0.1:9/never"));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:9\/never: timeoutMs must be a number of milliseconds >= 0, got NaN/,
    );
  });
});
