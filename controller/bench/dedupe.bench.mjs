// The webhook intake's in-memory dedupe store against the same store on
// lru-cache (max + ttl): claim + commit of fresh delivery ids, every tenth a
// redelivery, 10,000 ids kept (the default), so past the first 10,000 every
// write evicts. Operations per second, median of BENCH_ROUNDS (7) rounds of
// 200,000 deliveries, the two alternating so load weighs on both. Then the
// memory each takes at the largest max_entries the config allows, with one id.
import { LRUCache } from "lru-cache";
import { createMemoryDedupeStore } from "../dist/webhook/dedupe/memory-dedupe-store.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const N = 200_000;
const MAX = 10_000;
const TTL_MS = 86_400_000;

/** The same protocol (claim/commit/release) on lru-cache. */
function createLruDedupeStore() {
  return createLruStoreOf(MAX);
}

function createLruStoreOf(max) {
  const cache = new LRUCache({ max, ttl: TTL_MS });
  return {
    claim(key) {
      const done = cache.get(key);
      if (done !== undefined) return done ? "duplicate" : "in_flight";
      cache.set(key, false);
      return "new";
    },
    commit(key) {
      cache.set(key, true);
    },
    release(key) {
      cache.delete(key);
    },
  };
}

function run(store, round) {
  const started = performance.now();
  let duplicates = 0;
  for (let i = 0; i < N; i++) {
    const key = `codehost_a:${round}-${i % 10 === 9 ? i - 1 : i}`;
    if (store.claim(key) === "new") store.commit(key);
    else duplicates++;
  }
  if (duplicates !== N / 10) throw new Error(`expected ${N / 10} duplicates, got ${duplicates}`);
  return N / ((performance.now() - started) / 1000);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = { "createMemoryDedupeStore (hand-written FIFO)": [], "lru-cache 11 (max + ttl)": [] };
for (let round = 0; round < ROUNDS; round++) {
  results["createMemoryDedupeStore (hand-written FIFO)"].push(run(createMemoryDedupeStore(), round));
  results["lru-cache 11 (max + ttl)"].push(run(createLruDedupeStore(), round));
}
console.log(
  `\nclaim + commit, ${N} deliveries (10 % redelivered), ${MAX} kept; median of ${ROUNDS} (node ${process.version})\n`,
);
console.log("| store | deliveries/s (median) | min | max |\n|---|---:|---:|---:|");
for (const [name, xs] of Object.entries(results))
  console.log(
    `| ${name} | ${Math.round(median(xs)).toLocaleString("en")} | ${Math.round(Math.min(...xs)).toLocaleString("en")} | ${Math.round(Math.max(...xs)).toLocaleString("en")} |`,
  );

const rssAfter = (make) => {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  const store = make();
  store.claim("one");
  return `${((process.memoryUsage().rss - before) / 1e6).toFixed(0)} MB`;
};
console.log(`
RSS with one id at max_entries 10,000,000: lru-cache ${rssAfter(() => createLruStoreOf(10_000_000))}, hand-written ${rssAfter(() => createMemoryDedupeStore({ maxEntries: 10_000_000 }))}`);
