import {
  type ChannelError,
  createChannelError,
  DeadlineExceededError,
  InvalidArgumentError,
  toChannelError,
} from "../errors.js";
import { checkDelay, setLongTimeout } from "./long-timer.js";
import { sleep } from "./sleep.js";
import { toAttemptError } from "./transport-error.js";

/** What each attempt of {@link retry} receives. */
export interface RetryAttempt {
  /** 1 for the first attempt. */
  attempt: number;
  /**
   * Aborts when the caller's signal aborts or the budget runs out. Pass it
   * on (to `http.request`, say) so an attempt never outlives the budget.
   */
  signal: AbortSignal;
  /** Milliseconds left of the budget when the attempt started. */
  remainingMs: number;
  /**
   * Milliseconds left of the budget now. Read it after any wait inside the
   * attempt (a throttle slot) to size the attempt's own timeout, e.g.
   * `Math.min(2000, timeLeftMs() - 100)`, so the attempt fails with its own,
   * specific error a little before the budget aborts it.
   */
  timeLeftMs(): number;
}

/** Passed to {@link RetryOptions.onRetry} before each wait. */
export interface RetryEvent {
  /** The attempt that just failed (1-based). */
  attempt: number;
  /** Why it failed. */
  error: ChannelError;
  /** How long retry waits before the next attempt. */
  delayMs: number;
}

/** Options of {@link retry}. */
export interface RetryOptions {
  /** Cancels waiting and the running attempt; never retried. */
  signal?: AbortSignal;
  /**
   * Total time for all attempts and waits, in ms. Default 4000: leaves room
   * inside the interface's 5-second call target.
   */
  budgetMs?: number;
  /** Backoff before the 2nd attempt (doubles each time, full jitter). Default 200. */
  baseDelayMs?: number;
  /** Cap of one backoff wait (not of a Retry-After). Default 2000. */
  maxDelayMs?: number;
  /** Most attempts, the first included. Default 5. */
  maxAttempts?: number;
  /**
   * A retry is started only if at least this many ms of the budget remain
   * when it would start (after its wait); otherwise retry gives up at once
   * with the last failure. An attempt with less time would most likely be
   * cut off by the budget and only delay the answer. Default 250.
   */
  minAttemptMs?: number;
  /**
   * How long the next attempt will have to wait anyway before it can send,
   * in ms: a throttle's `msUntilSlot(key)` when the attempt waits for a slot.
   * It is counted, not slept (the attempt does its own waiting): retry gives
   * up when `max(backoff, readyInMs()) + minAttemptMs` does not fit in what
   * is left of the budget.
   */
  readyInMs?: () => number;
  /** Decides which failures are retried. Default: `error.retryable` (rate limits, 5xx, network). */
  shouldRetry?: (error: ChannelError) => boolean;
  /** Called before each wait; log here. */
  onRetry?: (event: RetryEvent) => void;
  /** Random source in [0, 1) for the jitter. Default `Math.random`. */
  random?: () => number;
}

const DEFAULT_BUDGET_MS = 4000;

/**
 * Runs `fn` until it succeeds, retrying retryable failures with exponential
 * backoff and full jitter, all within a time budget.
 *
 * Retried: `ChannelError`s whose `retryable` is true (`RateLimitedError`,
 * `UnavailableError`: HTTP 429 and 5xx, network errors, timeouts of a single
 * attempt). Never retried: other 4xx, config errors, cancellation. A
 * `RateLimitedError` with `retryAfterMs` waits exactly that long instead of
 * the backoff.
 *
 * When the next wait would end past the budget, would leave less than
 * `minAttemptMs` for the next attempt, or `maxAttempts` is reached, retry
 * fails at once, without sleeping, with an error of the last failure's
 * class and code whose message says how many attempts were made, in how
 * long, and why it gave up; the last failure is its `cause`. The same holds
 * when the budget runs out *during* a retry: the call fails with what the
 * target last answered (`gave up after 3 attempts in 4001 ms (the budget ran
 * out during attempt 3); last error: …`), not with a deadline. Only when
 * the very first attempt outlives the budget, with no failure to report,
 * the error is a `DeadlineExceededError`.
 *
 * @example
 * await retry(({ signal }) => http.postJson(url, body, { signal }), { signal: ctx.signal });
 */
export async function retry<T>(fn: (attempt: RetryAttempt) => Promise<T> | T, options: RetryOptions = {}): Promise<T> {
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const baseDelayMs = options.baseDelayMs ?? 200;
  const maxDelayMs = options.maxDelayMs ?? 2000;
  const maxAttempts = options.maxAttempts ?? 5;
  const minAttemptMs = options.minAttemptMs ?? 250;
  const shouldRetry = options.shouldRetry ?? ((error: ChannelError) => error.retryable);
  const random = options.random ?? Math.random;
  const callerSignal = options.signal;
  checkOptions(budgetMs, baseDelayMs, maxDelayMs, minAttemptMs, maxAttempts);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeLeftMs = () => Math.max(0, budgetMs - elapsed());

  if (callerSignal?.aborted) throw toChannelError(callerSignal.reason);
  // One budget signal for the whole call: its reason says what ran out.
  const budget = new AbortController();
  const budgetTimer = setLongTimeout(
    () => budget.abort(new DeadlineExceededError(`the retry budget of ${budgetMs} ms ran out`)),
    budgetMs,
  );
  const signal = callerSignal ? AbortSignal.any([callerSignal, budget.signal]) : budget.signal;

  let lastError: ChannelError | undefined;
  try {
    for (let attempt = 1; ; attempt++) {
      let error: ChannelError;
      try {
        return await fn({ attempt, signal, remainingMs: timeLeftMs(), timeLeftMs });
      } catch (thrown) {
        if (callerSignal?.aborted) throw toChannelError(callerSignal.reason);
        if (budget.signal.aborted) {
          // What the target last said is more useful than "too late".
          if (lastError) throw giveUp(lastError, attempt, elapsed(), `the budget ran out during attempt ${attempt}`);
          throw new DeadlineExceededError(
            `gave up after 1 attempt in ${elapsed()} ms: the retry budget of ${budgetMs} ms ran out during attempt 1`,
            {
              cause: thrown,
              hint: "the target is too slow; check its status or raise the budget",
            },
          );
        }
        error = toAttemptError(thrown, callerSignal);
      }
      lastError = error;
      if (!shouldRetry(error)) throw error;
      if (attempt >= maxAttempts) throw giveUp(error, attempt, elapsed(), `maxAttempts (${maxAttempts}) reached`);
      const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
      // A Retry-After that is not a number (NaN from a hostile header) falls back to the backoff.
      const asked = error.retryAfterMs;
      const delayMs =
        typeof asked === "number" && !Number.isNaN(asked) ? Math.max(0, asked) : Math.floor(random() * backoff);
      const remaining = budgetMs - elapsed();
      if (delayMs >= remaining) {
        const why =
          error.retryAfterMs !== undefined
            ? `the target asked to wait ${delayMs} ms but only ${Math.max(0, remaining)} ms of the ${budgetMs} ms budget remain`
            : `the next backoff of ${delayMs} ms would exceed the ${budgetMs} ms budget (${Math.max(0, remaining)} ms left)`;
        throw giveUp(error, attempt, elapsed(), why);
      }
      const waitMs = Math.max(delayMs, options.readyInMs?.() ?? 0);
      if (waitMs + minAttemptMs > remaining) {
        const why =
          waitMs >= remaining
            ? `the next attempt must wait ${waitMs} ms for its slot but only ${Math.max(0, remaining)} ms of the ${budgetMs} ms budget remain`
            : `after waiting ${waitMs} ms only ${remaining - waitMs} ms would be left for attempt ${attempt + 1}, less than minAttemptMs (${minAttemptMs} ms)`;
        throw giveUp(error, attempt, elapsed(), why);
      }
      options.onRetry?.({ attempt, error, delayMs });
      try {
        await sleep(delayMs, signal);
      } catch {
        if (callerSignal?.aborted) throw toChannelError(callerSignal.reason);
        throw giveUp(error, attempt, elapsed(), `the ${budgetMs} ms budget ran out while waiting`);
      }
    }
  } finally {
    budgetTimer.clear();
  }
}

const OPTION_HINT =
  "pass retry options as numbers of milliseconds; the default budget (4000) fits the 5-second call target";

function checkOptions(
  budgetMs: number,
  baseDelayMs: number,
  maxDelayMs: number,
  minAttemptMs: number,
  maxAttempts: number,
) {
  checkDelay("retry: budgetMs", budgetMs, OPTION_HINT);
  checkDelay("retry: baseDelayMs", baseDelayMs, OPTION_HINT);
  checkDelay("retry: maxDelayMs", maxDelayMs, OPTION_HINT);
  checkDelay("retry: minAttemptMs", minAttemptMs, OPTION_HINT);
  if (
    typeof maxAttempts !== "number"
    || !(maxAttempts >= 1)
    || (!Number.isInteger(maxAttempts) && maxAttempts !== Infinity)
  ) {
    throw new InvalidArgumentError(`retry: maxAttempts must be an integer >= 1, got ${String(maxAttempts)}`, {
      hint: OPTION_HINT,
    });
  }
}

function giveUp(error: ChannelError, attempts: number, ms: number, why: string): ChannelError {
  return createChannelError(
    error.code,
    `gave up after ${attempts} attempt${attempts === 1 ? "" : "s"} in ${ms} ms (${why}); last error: ${error.message}`,
    { cause: error, hint: error.hint, retryAfterMs: error.retryAfterMs },
  );
}
