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
  readonly key: string;
  done: boolean;
  expiresAt: number;
}

/**
 * A bounded in-memory {@link DedupeStore}. Every entry is written with the
 * same TTL, so entries in write order are also in expiry order: a FIFO of
 * the written entries gives the oldest at once, for expiry and for size
 * eviction alike. The FIFO is an array with a moving head rather than the
 * Map's own order, because iterating a Map from the front walks over every
 * slot deleted since its last rehash (thousands, under load, on each call).
 * A FIFO item whose key was written again or released is stale and skipped.
 * An entry expires `ttlSeconds` after its commit; one that expired behind a
 * still valid older entry is treated as absent and dropped when it reaches
 * the front.
 *
 * Kept rather than lru-cache (controller/bench/dedupe.bench.mjs,
 * docs/benchmarks.md): lru-cache 11 is as fast (155-171 thousand deliveries/s
 * against 158-199, medians of 7-11 in four runs on the shared 2-core machine)
 * but allocates for `max` up front: 369-401 MB of RSS with one id at the allowed
 * `max_entries` of 10,000,000, where this store grows with use.
 */
export function createMemoryDedupeStore(options: MemoryDedupeOptions = {}): DedupeStore & { readonly size: number } {
  const maxEntries = options.maxEntries ?? 10_000;
  const ttlMs = (options.ttlSeconds ?? 86_400) * 1000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let fifo: Entry[] = [];
  let head = 0;

  const write = (key: string, done: boolean, at: number) => {
    const entry: Entry = { key, done, expiresAt: at + ttlMs };
    entries.set(key, entry);
    fifo.push(entry);
    while (head < fifo.length) {
      const oldest = fifo[head] as Entry;
      const live = entries.get(oldest.key) === oldest;
      if (live && entries.size <= maxEntries && oldest.expiresAt > at) break;
      head++;
      if (live) entries.delete(oldest.key);
    }
    // Drop the consumed prefix now and then; amortized, a copy per item at most.
    if (head > 1024 && head * 2 > fifo.length) {
      fifo = fifo.slice(head);
      head = 0;
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
      write(key, false, at);
      return "new";
    },
    commit(key: string) {
      const entry = entries.get(key);
      if (entry === undefined) {
        write(key, true, now());
        return;
      }
      // Updated in place, the entry keeps its place in the FIFO (its claim
      // time), which is at most handler_ms earlier than a re-insertion would be.
      entry.done = true;
      entry.expiresAt = now() + ttlMs;
    },
    release(key: string) {
      entries.delete(key);
    },
  };
}
