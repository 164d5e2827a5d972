import { setTimeout as sleep } from "node:timers/promises";
import type { PollContext } from "../../sources/polling/poll-adapter.js";
import { responseOf, TrackerBApiError, toTrackerBError } from "./tracker-b-api-error.js";

/** How 429 answers are waited out (the SDK itself never retries). */
export interface RateLimitPolicy {
  /** 429s waited out per call before giving up; default 3. */
  maxRetries: number;
  /** Longest wait the adapter accepts; a longer `Retry-After` gives up at once (the polling source backs off instead). Default 60 s. */
  maxWaitMs: number;
  /** Wait when the 429 carries no `Retry-After`, doubled per retry; default 5 s. */
  defaultWaitMs: number;
}

/** The defaults of {@link RateLimitPolicy}. */
export const DEFAULT_RATE_LIMIT_POLICY: RateLimitPolicy = { maxRetries: 3, maxWaitMs: 60_000, defaultWaitMs: 5_000 };

/**
 * Runs one API call, waiting out 429 answers as `Retry-After` asks. Only
 * 429s are retried: the request was not processed, so even a POST is safe
 * to repeat. Any other failure is thrown as a {@link TrackerBApiError};
 * the wait ends early when `ctx.signal` aborts.
 */
export async function withRetryAfter<T>(
  call: string,
  run: () => Promise<T>,
  policy: RateLimitPolicy,
  ctx: PollContext,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (ctx.signal.aborted) throw ctx.signal.reason ?? error;
      const answer = responseOf(error);
      if (answer?.status !== 429) throw toTrackerBError(error, call);
      const wait = parseRetryAfter(answer.retryAfter, Date.now()) ?? policy.defaultWaitMs * 2 ** attempt;
      if (attempt >= policy.maxRetries || wait > policy.maxWaitMs) {
        const asked = answer.retryAfter === undefined ? "" : ` (Retry-After: ${answer.retryAfter})`;
        const base = toTrackerBError(error, call);
        throw new TrackerBApiError(
          call,
          429,
          `${base.message}; still rate limited after ${attempt} wait(s)${asked}`,
          base.hint ?? "",
        );
      }
      ctx.logger.warn("tracker B rate limit hit; waiting as Retry-After asks", {
        call,
        wait_ms: wait,
        retry: attempt + 1,
      });
      await sleep(wait, undefined, { signal: ctx.signal });
    }
  }
}

/**
 * A `Retry-After` value in milliseconds: delay-seconds or an HTTP date
 * (RFC 9110 10.2.3); undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
