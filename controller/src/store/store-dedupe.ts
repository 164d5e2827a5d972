import { StoreError } from "../errors.js";
import type { DedupeStore } from "../webhook/dedupe/dedupe-store.js";
import type { Store } from "./store.js";

/**
 * The webhook intake's {@link DedupeStore} on top of a durable {@link Store}:
 * delivery ids then survive restarts and are shared by every process using
 * the same database. Each id is kept `ttlMs` after its claim or commit.
 */
export function createStoreDedupe(store: Store, ttlMs: number): DedupeStore {
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new StoreError(`delivery id TTL must be a positive whole number of milliseconds, got ${ttlMs}`, {
      hint: "pass the webhook dedupe TTL in milliseconds (webhook.dedupe.ttl_seconds × 1000)",
    });
  }
  return {
    claim: (key) => store.claimDelivery(key, ttlMs),
    commit: (key) => store.commitDelivery(key, ttlMs),
    release: (key) => store.releaseDelivery(key),
  };
}
