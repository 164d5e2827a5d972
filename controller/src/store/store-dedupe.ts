import { StoreError } from "../errors.js";
import type { ClaimResult, DedupeStore } from "../webhook/dedupe/dedupe-store.js";
import type { Store } from "./store.js";

/**
 * How long a claim holds a delivery id before its batch commits: far above any
 * hand-off (the handler timeout is seconds), far below a sender's patience.
 */
export const DEFAULT_CLAIM_LEASE_MS = 5 * 60_000;

interface PendingClaim {
  key: string;
  resolve(claim: ClaimResult): void;
  reject(error: unknown): void;
}

/**
 * The webhook intake's {@link DedupeStore} on top of a durable {@link Store}:
 * delivery ids then survive restarts and are shared by every process using
 * the same database. A handled id is kept `ttlMs`; a claim only
 * `claimLeaseMs` (at most `ttlMs`): the claim of a process that died before
 * its batch committed would otherwise answer the sender's every retry with
 * 503 for the whole TTL (a day by default), and the delivery would be lost.
 * A lease that ends while its hand-off still runs lets a retry through,
 * which only stores the ticket again as existing: no run starts twice.
 *
 * The controller's intake claims here only deliveries without tickets
 * (approvals): a delivery's tickets and its id are checked and stored
 * together by the sink (Store.acceptDeliveries). The claims of one
 * event-loop turn still go to the store together, in one transaction
 * ({@link Store.claimDeliveries}): a transaction's own cost is most of a
 * single claim's on SQLite. Each caller gets its own key's answer.
 */
export function createStoreDedupe(store: Store, ttlMs: number, claimLeaseMs: number = DEFAULT_CLAIM_LEASE_MS): DedupeStore {
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
  let waiting: PendingClaim[] = [];
  const flush = () => {
    const batch = waiting;
    waiting = [];
    store
      .claimDeliveries(
        batch.map((c) => c.key),
        leaseMs,
      )
      .then(
        (claims) => {
          batch.forEach((c, i) => c.resolve(claims[i] as ClaimResult));
        },
        (error: unknown) => {
          for (const c of batch) c.reject(error);
        },
      );
  };
  return {
    claim: (key) =>
      new Promise<ClaimResult>((resolve, reject) => {
        // setImmediate runs after this turn's I/O callbacks: every request parsed in this turn joins the batch.
        if (waiting.push({ key, resolve, reject }) === 1) setImmediate(flush);
      }),
    commit: (key) => store.commitDelivery(key, ttlMs),
    release: (key) => store.releaseDelivery(key),
  };
}
