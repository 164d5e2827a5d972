import { StoreError } from "../errors.js";
import type { ClaimResult, DedupeStore } from "../webhook/dedupe/dedupe-store.js";
import type { Store } from "./store.js";

interface PendingClaim {
  key: string;
  resolve(claim: ClaimResult): void;
  reject(error: unknown): void;
}

/**
 * The webhook intake's {@link DedupeStore} on top of a durable {@link Store}:
 * delivery ids then survive restarts and are shared by every process using
 * the same database. Each id is kept `ttlMs` after its claim or commit.
 *
 * The claims of one event-loop turn go to the store together, in one
 * transaction ({@link Store.claimDeliveries}), as the batched sink does
 * with tickets: a transaction's own cost is most of a single claim's on
 * SQLite. Each caller still gets its own key's answer; the intake's
 * handler marks ids handled with their tickets, so `commit` is left for
 * deliveries without tickets.
 */
export function createStoreDedupe(store: Store, ttlMs: number): DedupeStore {
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new StoreError(`delivery id TTL must be a positive whole number of milliseconds, got ${ttlMs}`, {
      hint: "pass the webhook dedupe TTL in milliseconds (webhook.dedupe.ttl_seconds × 1000)",
    });
  }
  let waiting: PendingClaim[] = [];
  const flush = () => {
    const batch = waiting;
    waiting = [];
    store
      .claimDeliveries(
        batch.map((c) => c.key),
        ttlMs,
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
