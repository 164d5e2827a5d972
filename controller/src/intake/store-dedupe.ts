import { StoreError } from "../errors.js";
import type { Store } from "../store/store.js";
import type { DedupeStore } from "../webhook/dedupe/dedupe-store.js";

/**
 * How long a claim holds a delivery id before it is committed: far above any
 * hand-off (the handler timeout is seconds), far below a sender's patience.
 */
export const DEFAULT_CLAIM_LEASE_MS = 5 * 60_000;

/**
 * The webhook intake's {@link DedupeStore} on top of a durable {@link Store}:
 * delivery ids then survive restarts and are shared by every process using
 * the same database. A handled id is kept `ttlMs`; a claim only
 * `claimLeaseMs` (at most `ttlMs`): the claim of a process that died before
 * it committed would otherwise answer the sender's every retry with
 * 503 for the whole TTL (a day by default), and the delivery would be lost.
 * A lease that ends while its hand-off still runs lets a retry through,
 * which only stores the ticket again as existing: no run starts twice.
 *
 * The controller's intake claims here only deliveries without tickets
 * (approvals, rare): a delivery's tickets and its id are checked and stored
 * together by the sink (Store.acceptDeliveries), so each claim is a
 * transaction of its own.
 */
export function createStoreDedupe(
  store: Store,
  ttlMs: number,
  claimLeaseMs: number = DEFAULT_CLAIM_LEASE_MS,
): DedupeStore {
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new StoreError(`delivery id TTL must be a positive whole number of milliseconds, got ${ttlMs}`, {
      hint: "pass the webhook dedupe TTL in milliseconds (webhook.dedupe.ttl_seconds × 1000)",
    });
  }
  if (!Number.isSafeInteger(claimLeaseMs) || claimLeaseMs <= 0) {
    throw new StoreError(`delivery claim lease must be a positive whole number of milliseconds, got ${claimLeaseMs}`, {
      hint: "leave it out for the default (5 minutes)",
    });
  }
  const leaseMs = Math.min(claimLeaseMs, ttlMs);
  return {
    claim: (key) => store.claimDelivery(key, leaseMs),
    commit: (key) => store.commitDelivery(key, ttlMs),
    release: (key) => store.releaseDelivery(key),
  };
}
