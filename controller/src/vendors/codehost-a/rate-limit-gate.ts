import { CodehostAError } from "./codehost-a-error.js";

/** Response headers as Octokit hands them over. */
export type Headers = Record<string, string | number | undefined>;

/**
 * Remembers when code host A said to stop and keeps requests from it until
 * then. The vendor asks integrations to send nothing while limited (those
 * that keep calling may be banned):
 * - a spent primary quota (or a secondary limit) refuses new polls at once,
 *   at no cost; the polling source's back-off decides when to look again;
 * - a secondary limit (403/429 with Retry-After) also holds every request
 *   already on its way to the host (writes, and the retry of the rejected
 *   request) until Retry-After has passed, however long; then the held
 *   writes go first, and reads wait until they are answered;
 * - a write is held through a spent quota too, until its reset.
 */
export interface RateLimitGate {
  /** Throws a CodehostAError while the code host asked us to wait (for new polls). */
  check(): void;
  /**
   * Resolves when a request may be sent (at once when no limit holds).
   * Call the returned function once its answer (or failure) is in. Rejects
   * with an AbortError when `signal` aborts while it is held.
   */
  hold(write: boolean, signal: AbortSignal | undefined): Promise<() => void>;
  /** Reads the rate-limit headers of each answer (a success, an error or a 304). */
  observe(status: number | undefined, headers: Headers | undefined): void;
  /** Epoch ms until which requests are refused; 0 when open. */
  readonly blockedUntil: number;
}

/** A gate; `secondMs` is the length of one Retry-After second (tests shrink it). */
export function createRateLimitGate(secondMs: number, now: () => number = Date.now): RateLimitGate {
  let quotaUntil = 0;
  let quotaWhy = "";
  let secondaryUntil = 0;
  let secondaryWhy = "";
  let heldWrites = 0;
  let sendingWrites = 0;
  const waiting = new Set<() => void>();
  const wake = () => {
    for (const resume of [...waiting]) resume();
  };
  const blockedUntil = () => Math.max(quotaUntil, secondaryUntil);

  const pause = (ms: number | undefined, signal: AbortSignal | undefined) => pauseFor(ms, signal, waiting);

  return {
    get blockedUntil() {
      return blockedUntil();
    },
    check() {
      const until = blockedUntil();
      if (until > now()) {
        const why = until === secondaryUntil ? secondaryWhy : quotaWhy;
        throw new CodehostAError(`code host A ${why}; no requests until ${new Date(until).toISOString()}`, {
          hint: "nothing to do: polling resumes once the limit resets; if it recurs, raise ticketing.poll_interval or give the controller a token of its own",
        });
      }
    },
    async hold(write, signal) {
      let held = false;
      if (write) heldWrites++;
      try {
        for (;;) {
          // A write also waits out a spent quota: unlike a poll, it is not tried again later.
          const left = (write ? Math.max(secondaryUntil, quotaUntil) : secondaryUntil) - now();
          if (left > 0) await pause(left, signal);
          // Writes first: a read waits while a write held by the limit has not been answered.
          else if (!write && heldWrites + sendingWrites > 0) await pause(undefined, signal);
          else break;
          held = true;
        }
      } finally {
        if (write) {
          heldWrites--;
          wake();
        }
      }
      // Only a write that was held delays reads: in the normal course reads and writes go side by side.
      if (!write || !held) return () => {};
      sendingWrites++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        sendingWrites--;
        wake();
      };
    },
    observe(status, headers) {
      if (headers === undefined) return;
      const remaining = headers["x-ratelimit-remaining"];
      const reset = Number(headers["x-ratelimit-reset"]);
      if (String(remaining) === "0" && Number.isFinite(reset) && reset > 0) {
        if (reset * 1000 > quotaUntil) [quotaUntil, quotaWhy] = [reset * 1000, "spent its rate-limit quota"];
      } else if (status !== undefined && status < 400 && remaining !== undefined) {
        // A successful answer with quota left: the quota is back. A secondary limit lasts its Retry-After regardless.
        quotaUntil = 0;
      }
      const retryAfter = Number(headers["retry-after"]);
      if ((status === 403 || status === 429) && Number.isFinite(retryAfter) && retryAfter > 0) {
        const until = now() + retryAfter * secondMs;
        if (until > secondaryUntil)
          [secondaryUntil, secondaryWhy] = [until, `asked us to retry after ${retryAfter} s (secondary rate limit)`];
      }
    },
  };
}

/** Waits `ms`, or until the gate wakes its `waiting` when `ms` is undefined; rejects when `signal` aborts. */
function pauseFor(ms: number | undefined, signal: AbortSignal | undefined, waiting: Set<() => void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const cancelled = () => new DOMException("the request was cancelled (controller shutting down)", "AbortError");
    if (signal?.aborted) return reject(cancelled());
    const done = () => {
      clearTimeout(timer);
      waiting.delete(done);
      signal?.removeEventListener("abort", abort);
      resolve();
    };
    const abort = () => {
      done();
      reject(cancelled());
    };
    const timer = ms === undefined ? undefined : setTimeout(done, ms);
    waiting.add(done);
    signal?.addEventListener("abort", abort, { once: true });
  });
}
