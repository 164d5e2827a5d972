import type { ClaimResult, DedupeStore } from "./dedupe-store.js";

/** Options of {@link createMemoryDedupeStore}. */
export interface MemoryDedupeOptions {
  /** Most ids kept; the oldest is dropped beyond it. Default 10,000. */
  maxEntries?: number;
  /** How long an id is remembered, in seconds. Default one day. */
  ttlSeconds?: number;
  /** Clock in milliseconds (tests). */
  now?: () => number;
}

interface Entry {
  done: boolean;
  expiresAt: number;
}

/**
 * A bounded in-memory {@link DedupeStore}. A Map keeps insertion order and
 * every entry is (re)inserted with the same TTL, so the first entries are
 * always the oldest: expiry and size eviction both pop from the front.
 */
export function createMemoryDedupeStore(options: MemoryDedupeOptions = {}): DedupeStore & { readonly size: number } {
  const maxEntries = options.maxEntries ?? 10_000;
  const ttlMs = (options.ttlSeconds ?? 86_400) * 1000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  const sweep = (at: number) => {
    for (const [key, entry] of entries) {
      if (entry.expiresAt > at && entries.size <= maxEntries) break;
      entries.delete(key);
    }
  };

  return {
    get size() {
      return entries.size;
    },
    claim(key: string): ClaimResult {
      const at = now();
      const entry = entries.get(key);
      if (entry && entry.expiresAt > at) return entry.done ? "duplicate" : "in_flight";
      entries.delete(key);
      entries.set(key, { done: false, expiresAt: at + ttlMs });
      sweep(at);
      return "new";
    },
    commit(key: string) {
      entries.delete(key);
      entries.set(key, { done: true, expiresAt: now() + ttlMs });
      sweep(now());
    },
    release(key: string) {
      entries.delete(key);
    },
  };
}
