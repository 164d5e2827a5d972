import type { RatelimitedLinearError } from "@linear/sdk";

/** Used when a RATELIMITED answer carries none of the headers that say when it ends. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;
const MAX_WAIT_MS = 60 * 60_000;

/**
 * When requests may go again after a RATELIMITED answer (ms since the
 * epoch): `Retry-After` when sent, else the latest reset of the budgets
 * (requests, complexity) that are spent, else of any budget the headers
 * name. Tracker A sends resets as epoch milliseconds; epoch seconds are
 * read too, so a proxy that rewrites them does not make the wait absurd.
 */
export function rateLimitResetAt(
  error: Pick<
    RatelimitedLinearError,
    "retryAfter" | "requestsRemaining" | "requestsResetAt" | "complexityRemaining" | "complexityResetAt"
  >,
  now: number,
): number {
  const clamp = (at: number) => Math.min(now + MAX_WAIT_MS, Math.max(now + 1_000, at));
  if (error.retryAfter !== undefined && error.retryAfter >= 0) return clamp(now + error.retryAfter * 1000);
  const budgets = [
    { remaining: error.requestsRemaining, resetAt: epochMs(error.requestsResetAt) },
    { remaining: error.complexityRemaining, resetAt: epochMs(error.complexityResetAt) },
  ].filter((b): b is { remaining: number | undefined; resetAt: number } => b.resetAt !== undefined);
  const spent = budgets.filter((b) => b.remaining !== undefined && b.remaining <= 0);
  const pick = spent.length > 0 ? spent : budgets;
  if (pick.length === 0) return now + DEFAULT_RATE_LIMIT_WAIT_MS;
  return clamp(Math.max(...pick.map((b) => b.resetAt)));
}

function epochMs(value: number | undefined): number | undefined {
  if (value === undefined || !Number.isFinite(value) || value <= 0) return undefined;
  return value < 1e12 ? value * 1000 : value;
}
