import { describe, expect, it } from "vitest";
import { createMemoryDedupeStore } from "../src/webhook/index.js";

describe("memory dedupe store", () => {
  it("claims once, reports in-flight and duplicate, releases on failure", () => {
    const store = createMemoryDedupeStore();
    expect(store.claim("a")).toBe("new");
    expect(store.claim("a")).toBe("in_flight");
    store.release("a");
    expect(store.claim("a")).toBe("new");
    store.commit("a");
    expect(store.claim("a")).toBe("duplicate");
  });

  it("forgets ids after the TTL", () => {
    let now = 0;
    const store = createMemoryDedupeStore({ ttlSeconds: 10, now: () => now });
    store.claim("a");
    store.commit("a");
    now = 9_999;
    expect(store.claim("a")).toBe("duplicate");
    now = 10_001;
    expect(store.claim("a")).toBe("new");
  });

  it("stays within max_entries, dropping the oldest", () => {
    const store = createMemoryDedupeStore({ maxEntries: 3 });
    for (const key of ["a", "b", "c", "d"]) {
      store.claim(key);
      store.commit(key);
    }
    expect(store.size).toBe(3);
    expect(store.claim("b")).toBe("duplicate");
    expect(store.claim("a")).toBe("new");
    expect(store.size).toBe(3);
  });
});

describe("memory dedupe store expiry", () => {
  it("drops expired ids from memory, not only from answers", () => {
    let now = 0;
    const store = createMemoryDedupeStore({ ttlSeconds: 10, now: () => now });
    store.claim("a");
    store.commit("a");
    store.claim("b");
    now = 20_000;
    store.claim("c");
    expect(store.size).toBe(1);
    expect(store.claim("a")).toBe("new");
  });
});
