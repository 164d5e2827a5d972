import { describe, expect, it } from "vitest";
import {
  CancelledError,
  type ChannelError,
  DeadlineExceededError,
  ErrorCode,
  InvalidArgumentError,
  InvalidConfigError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitedError,
  RejectedError,
  UnauthenticatedError,
  UnavailableError,
} from "../../src/errors.js";
import { type RetryEvent, retry } from "../../src/helpers/retry.js";

const since = (start: number) => performance.now() - start;

/** An fn that fails with the given errors in turn, then returns "ok". */
function failing(...errors: unknown[]) {
  const calls: number[] = [];
  const fn = async ({ attempt }: { attempt: number }) => {
    calls.push(attempt);
    const error = errors[attempt - 1];
    if (error !== undefined) throw error;
    return "ok";
  };
  return { fn, calls };
}

function networkError(code: string, message = `connect ${code} 127.0.0.1:1`) {
  return Object.assign(new Error(message), { code });
}

describe("retry", () => {
  it("returns the first success and retries retryable failures with backoff", async () => {
    const events: RetryEvent[] = [];
    const { fn, calls } = failing(new UnavailableError("503"), new RateLimitedError("429"));
    const result = await retry(fn, { baseDelayMs: 20, random: () => 0.5, onRetry: (e) => events.push(e) });
    expect(result).toBe("ok");
    expect(calls).toEqual([1, 2, 3]);
    // Full jitter with random() = 0.5: half of 20, then half of 40.
    expect(events.map((e) => [e.attempt, e.delayMs, e.error.code])).toEqual([
      [1, 10, ErrorCode.Unavailable],
      [2, 20, ErrorCode.RateLimited],
    ]);
  });

  it("caps one backoff wait at maxDelayMs", async () => {
    const delays: number[] = [];
    const errors = Array.from({ length: 5 }, () => new UnavailableError("503"));
    await retry(failing(...errors).fn, {
      baseDelayMs: 10,
      maxDelayMs: 25,
      maxAttempts: 6,
      random: () => 0.999,
      onRetry: (e) => delays.push(e.delayMs),
    });
    expect(delays).toEqual([9, 19, 24, 24, 24]);
  });

  it.each([
    ["InvalidArgumentError (400)", new InvalidArgumentError("bad")],
    ["UnauthenticatedError (401)", new UnauthenticatedError("who")],
    ["PermissionDeniedError (403)", new PermissionDeniedError("no")],
    ["NotFoundError (404)", new NotFoundError("gone")],
    ["RejectedError (409)", new RejectedError("conflict")],
    ["InvalidConfigError", new InvalidConfigError("config")],
    ["CancelledError", new CancelledError("stop")],
    ["DeadlineExceededError", new DeadlineExceededError("late")],
  ])("never retries %s and rethrows it unchanged", async (_name, error) => {
    const { fn, calls } = failing(error);
    await expect(retry(fn, { baseDelayMs: 1 })).rejects.toBe(error);
    expect(calls).toEqual([1]);
  });

  it.each([
    ["ECONNRESET", networkError("ECONNRESET", "read ECONNRESET")],
    ["ECONNREFUSED", networkError("ECONNREFUSED")],
    ["undici socket error", networkError("UND_ERR_SOCKET", "other side closed")],
    ["socket hang up", new Error("socket hang up")],
    ["a single attempt's timeout", new DOMException("The operation was aborted due to timeout", "TimeoutError")],
  ])("retries a network failure: %s", async (_name, error) => {
    const { fn, calls } = failing(error);
    expect(await retry(fn, { baseDelayMs: 1 })).toBe("ok");
    expect(calls).toEqual([1, 2]);
  });

  it("does not retry an unknown programming error", async () => {
    const { fn, calls } = failing(new TypeError("x is not a function"));
    await expect(retry(fn)).rejects.toMatchObject({ code: ErrorCode.Internal, message: "x is not a function" });
    expect(calls).toEqual([1]);
  });

  it("waits a RateLimitedError's retryAfterMs instead of the backoff", async () => {
    const { fn } = failing(new RateLimitedError("429", { retryAfterMs: 400 }));
    const start = performance.now();
    await retry(fn, { baseDelayMs: 1, random: () => 0 });
    expect(since(start)).toBeGreaterThanOrEqual(395);
  });

  it("fails at once when a Retry-After exceeds the remaining budget, naming attempts, time and reason", async () => {
    const limited = new RateLimitedError("POST /hook answered HTTP 429", { retryAfterMs: 30_000, hint: "slow down" });
    const { fn, calls } = failing(new UnavailableError("503"), limited);
    const start = performance.now();
    const error = (await retry(fn, { baseDelayMs: 1 }).catch((e: unknown) => e)) as ChannelError;
    expect(since(start)).toBeLessThan(200);
    expect(calls).toEqual([1, 2]);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.message).toMatch(
      /^gave up after 2 attempts in \d+ ms \(the target asked to wait 30000 ms but only \d+ ms of the 4000 ms budget remain\); last error: POST \/hook answered HTTP 429$/,
    );
    expect(error.cause).toBe(limited);
    expect(error.retryAfterMs).toBe(30_000);
    expect(error.hint).toBe("slow down");
  });

  it("never sleeps past the budget when backoff is used", async () => {
    let attempts = 0;
    const start = performance.now();
    const error = (await retry(
      async () => {
        attempts++;
        throw new UnavailableError("503");
      },
      // minAttemptMs 0: this is about the backoff alone (minAttemptMs has its own test).
      { budgetMs: 500, baseDelayMs: 100, maxDelayMs: 400, maxAttempts: 100, random: () => 0.999, minAttemptMs: 0 },
    ).catch((e: unknown) => e)) as ChannelError;
    const elapsed = since(start);
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.message).toMatch(
      /^gave up after \d+ attempts in \d+ ms \(the next backoff of \d+ ms would exceed the 500 ms budget/,
    );
    expect(elapsed).toBeLessThan(500);
    // 99 + 199 ms slept, then a 399 ms backoff would not fit: three attempts.
    expect(attempts).toBe(3);
  });

  it("stops after maxAttempts", async () => {
    const errors = Array.from({ length: 5 }, () => new UnavailableError("503"));
    const { fn, calls } = failing(...errors);
    await expect(retry(fn, { maxAttempts: 3, baseDelayMs: 1 })).rejects.toThrow(
      /gave up after 3 attempts .*maxAttempts \(3\) reached.*last error: 503/,
    );
    expect(calls).toEqual([1, 2, 3]);
  });

  it("aborts a running retry when the budget runs out, failing with the last error instead of a deadline", async () => {
    const first = new UnavailableError("first failed", { hint: "try later" });
    const start = performance.now();
    const error = (await retry(
      ({ attempt, signal }) =>
        new Promise((_resolve, reject) => {
          if (attempt === 1) reject(first);
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
      { budgetMs: 300, baseDelayMs: 1 },
    ).catch((e: unknown) => e)) as ChannelError;
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.code).toBe(ErrorCode.Unavailable);
    expect(error.message).toMatch(
      /^gave up after 2 attempts in \d+ ms \(the budget ran out during attempt 2\); last error: first failed$/,
    );
    expect(error.cause).toBe(first);
    expect(error.hint).toBe("try later");
    expect(since(start)).toBeGreaterThanOrEqual(290);
    expect(since(start)).toBeLessThan(1000);
  });

  it("fails with DeadlineExceededError when the very first attempt outlives the budget", async () => {
    const start = performance.now();
    const error = (await retry(
      ({ signal }) => new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
      { budgetMs: 200 },
    ).catch((e: unknown) => e)) as ChannelError;
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(error.message).toMatch(
      /^gave up after 1 attempt in \d+ ms: the retry budget of 200 ms ran out during attempt 1$/,
    );
    expect(since(start)).toBeGreaterThanOrEqual(190);
    expect(since(start)).toBeLessThan(1000);
  });

  it("does not start a retry with less than minAttemptMs left, and gives up with the last error", async () => {
    const limited = new RateLimitedError("429", { retryAfterMs: 250 });
    const { fn, calls } = failing(limited);
    const start = performance.now();
    const error = (await retry(fn, { budgetMs: 500, minAttemptMs: 300 }).catch((e: unknown) => e)) as ChannelError;
    expect(since(start)).toBeLessThan(200);
    expect(calls).toEqual([1]);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.message).toMatch(
      /^gave up after 1 attempt in \d+ ms \(after waiting 250 ms only \d+ ms would be left for attempt 2, less than minAttemptMs \(300 ms\)\); last error: 429$/,
    );
    expect(error.cause).toBe(limited);
    // The same wait with room for an attempt is taken.
    expect(await retry(failing(limited).fn, { budgetMs: 1000, minAttemptMs: 300 })).toBe("ok");
  });

  it("counts readyInMs (a throttle's wait) against the budget without sleeping it", async () => {
    const { fn, calls } = failing(new UnavailableError("503"));
    const start = performance.now();
    const error = (await retry(fn, { budgetMs: 1000, baseDelayMs: 1, readyInMs: () => 5000 }).catch(
      (e: unknown) => e,
    )) as ChannelError;
    expect(since(start)).toBeLessThan(200);
    expect(calls).toEqual([1]);
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.message).toMatch(
      /the next attempt must wait 5000 ms for its slot but only \d+ ms of the 1000 ms budget remain\); last error: 503$/,
    );
    const delays: number[] = [];
    const slept = performance.now();
    expect(
      await retry(failing(new UnavailableError("503")).fn, {
        baseDelayMs: 1,
        readyInMs: () => 300,
        onRetry: (e) => delays.push(e.delayMs),
      }),
    ).toBe("ok");
    expect(delays).toEqual([0]);
    expect(since(slept)).toBeLessThan(250);
  });

  it("tells an attempt how much of the budget is left now", async () => {
    const left: number[] = [];
    await retry(
      async ({ remainingMs, timeLeftMs }) => {
        left.push(remainingMs);
        await new Promise((resolve) => setTimeout(resolve, 200));
        left.push(timeLeftMs());
      },
      { budgetMs: 1000 },
    );
    expect(left[0]).toBeGreaterThan(990);
    expect(left[1]).toBeLessThanOrEqual(810);
    expect(left[1]).toBeGreaterThan(500);
  });

  it("gives each attempt the remaining budget", async () => {
    const remaining: number[] = [];
    await retry(
      async ({ attempt, remainingMs }) => {
        remaining.push(remainingMs);
        if (attempt === 1) throw new UnavailableError("503");
      },
      { budgetMs: 1000, baseDelayMs: 100, random: () => 0.999 },
    );
    expect(remaining[0]).toBeGreaterThan(990);
    expect(remaining[1]).toBeLessThanOrEqual(1000 - 99);
  });

  it("stops sleeping as soon as the caller aborts, with CancelledError", async () => {
    const controller = new AbortController();
    const { fn, calls } = failing(new RateLimitedError("429", { retryAfterMs: 3000 }));
    const start = performance.now();
    setTimeout(() => controller.abort(), 50);
    await expect(retry(fn, { signal: controller.signal })).rejects.toBeInstanceOf(CancelledError);
    expect(since(start)).toBeLessThan(1000);
    expect(calls).toEqual([1]);
  });

  it("passes the caller's abort reason through (a deadline stays a deadline)", async () => {
    const reason = new DeadlineExceededError("the call's deadline passed");
    const controller = new AbortController();
    const promise = retry(
      ({ signal }) =>
        new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")))),
      { signal: controller.signal },
    );
    controller.abort(reason);
    await expect(promise).rejects.toBe(reason);
  });

  it("does not start when the caller's signal is already aborted", async () => {
    const { fn, calls } = failing();
    await expect(retry(fn, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(CancelledError);
    expect(calls).toEqual([]);
  });

  it("lets shouldRetry narrow what is retried", async () => {
    const { fn, calls } = failing(new RateLimitedError("429"));
    await expect(retry(fn, { shouldRetry: (e) => e.code !== ErrorCode.RateLimited })).rejects.toBeInstanceOf(
      RateLimitedError,
    );
    expect(calls).toEqual([1]);
  });
});
