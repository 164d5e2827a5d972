import { CodehostAError } from "./codehost-a-error.js";

/** Response headers as Octokit hands them over. */
export type Headers = Record<string, string | number | undefined>;

/**
 * Remembers when code host A said to stop (the primary quota spent, a
 * secondary limit with Retry-After) and refuses requests until then. The
 * vendor asks clients not to keep calling while limited (integrations that
 * do may be banned), so a refused request costs nothing and the polling
 * source's back-off decides when to look again.
 */
export interface RateLimitGate {
  /** Throws a CodehostAError while the code host asked us to wait. */
  check(): void;
  /** Reads the rate-limit headers of an answer (a success, an error or a 304). */
  observe(status: number | undefined, headers: Headers | undefined): void;
  /** Epoch ms until which requests are refused; 0 when open. */
  readonly blockedUntil: number;
}

/** A gate; `secondMs` is the length of one Retry-After second (tests shrink it). */
export function createRateLimitGate(secondMs: number, now: () => number = Date.now): RateLimitGate {
  let blockedUntil = 0;
  let why = "";
  const block = (until: number, reason: string) => {
    if (until > blockedUntil) {
      blockedUntil = until;
      why = reason;
    }
  };
  return {
    get blockedUntil() {
      return blockedUntil;
    },
    check() {
      if (blockedUntil > now()) {
        throw new CodehostAError(`code host A ${why}; no requests until ${new Date(blockedUntil).toISOString()}`, {
          hint: "nothing to do: polling resumes once the limit resets; if it recurs, raise ticketing.poll_interval or give the controller a token of its own",
        });
      }
    },
    observe(status, headers) {
      if (headers === undefined) return;
      const remaining = headers["x-ratelimit-remaining"];
      const reset = Number(headers["x-ratelimit-reset"]);
      if (String(remaining) === "0" && Number.isFinite(reset) && reset > 0) {
        block(reset * 1000, "spent its rate-limit quota");
      } else if (status !== undefined && status < 400 && remaining !== undefined) {
        // A successful answer with quota left: whatever limit we remembered is over.
        blockedUntil = 0;
      }
      const retryAfter = Number(headers["retry-after"]);
      if ((status === 403 || status === 429) && Number.isFinite(retryAfter) && retryAfter > 0) {
        block(now() + retryAfter * secondMs, `asked us to retry after ${retryAfter} s (secondary rate limit)`);
      }
    },
  };
}
