import { describe, expect, it } from "vitest";
import { createStoreDedupe } from "../../../src/intake/store-dedupe.js";
import { expectCode, type OpenStore, sleep } from "./support.js";

const DAY = 86_400_000;

/** Webhook delivery ids: claim, commit, release, TTL, shared and durable. */
export function deliveryTests(open: OpenStore): void {
  describe("delivery ids", () => {
    it("claims once, reports in-flight and duplicate, and lets a released id through again", async () => {
      const { store } = await open();
      expect(await store.claimDelivery("generic:1", DAY)).toBe("new");
      expect(await store.claimDelivery("generic:1", DAY)).toBe("in_flight");
      await store.releaseDelivery("generic:1");
      expect(await store.claimDelivery("generic:1", DAY)).toBe("new");
      await store.commitDelivery("generic:1", DAY);
      expect(await store.claimDelivery("generic:1", DAY)).toBe("duplicate");
      expect(await store.claimDelivery("generic:2", DAY)).toBe("new");
    });

    it("treats an id committed without a claim as a duplicate", async () => {
      const { store } = await open();
      await store.commitDelivery("codehost_a:x", DAY);
      expect(await store.claimDelivery("codehost_a:x", DAY)).toBe("duplicate");
    });

    it("forgets claims and commits once their TTL has passed", async () => {
      const { store } = await open();
      expect(await store.claimDelivery("claimed", 1)).toBe("new");
      await store.commitDelivery("committed", 1);
      await store.claimDelivery("kept", DAY);
      await sleep(25);
      expect(await store.claimDelivery("claimed", DAY)).toBe("new");
      expect(await store.claimDelivery("committed", DAY)).toBe("new");
      expect(await store.claimDelivery("kept", DAY)).toBe("in_flight");
    });

    it("keeps expired ids from answering while many are purged", async () => {
      const { store } = await open();
      for (let i = 0; i < 300; i++) await store.commitDelivery(`old:${i}`, 1);
      await sleep(25);
      for (let i = 0; i < 300; i++) expect(await store.claimDelivery(`old:${i}`, DAY)).toBe("new");
      for (let i = 0; i < 300; i++) expect(await store.claimDelivery(`old:${i}`, DAY)).toBe("in_flight");
    });

    it("shares ids between stores on the same database and keeps them across reopen", async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      expect(await store.claimDelivery("shared", DAY)).toBe("new");
      expect(await other.claimDelivery("shared", DAY)).toBe("in_flight");
      await other.commitDelivery("shared", DAY);
      await store.close();
      await other.close();
      const third = await reopen();
      expect(await third.claimDelivery("shared", DAY)).toBe("duplicate");
    });

    it("hands an id to one of two stores claiming it at once", async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? store : other).claimDelivery("race", DAY)),
      );
      expect(answers.filter((a) => a === "new")).toHaveLength(1);
    });

    it("refuses a TTL that is not a positive number of milliseconds", async () => {
      const { store } = await open();
      await expectCode(store.claimDelivery("k", 0), "ERR_STORE");
      await expectCode(store.commitDelivery("k", Number.NaN), "ERR_STORE");
      await expectCode(store.claimDelivery("", DAY), "ERR_STORE");
      expect(await store.claimDelivery("k", DAY)).toBe("new");
    });

    it("serves the webhook intake's DedupeStore protocol through createStoreDedupe", async () => {
      const { store } = await open();
      const dedupe = createStoreDedupe(store, DAY);
      expect(await dedupe.claim("generic:d1")).toBe("new");
      expect(await dedupe.claim("generic:d1")).toBe("in_flight");
      await dedupe.release("generic:d1");
      expect(await dedupe.claim("generic:d1")).toBe("new");
      await dedupe.commit("generic:d1");
      expect(await dedupe.claim("generic:d1")).toBe("duplicate");
      expect(() => createStoreDedupe(store, 0)).toThrow(/positive whole number/);
    });

    it("lets a claim go after its lease (a process that died before its batch committed), keeping handled ids for the TTL", async () => {
      const { store, reopen } = await open();
      const dead = createStoreDedupe(store, DAY, 150);
      expect(await dead.claim("generic:orphan")).toBe("new");
      await dead.commit("generic:handled");
      const next = createStoreDedupe(await reopen(), DAY, 150);
      expect(await next.claim("generic:orphan")).toBe("in_flight");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await next.claim("generic:orphan")).toBe("new");
      expect(await next.claim("generic:handled")).toBe("duplicate");
      expect(() => createStoreDedupe(store, DAY, 0)).toThrow(/claim lease/);
    });

    it("gives each of the claims made in one event-loop turn its own answer", async () => {
      const { store } = await open();
      const dedupe = createStoreDedupe(store, DAY);
      await dedupe.commit("generic:old");
      const answers = await Promise.all(
        ["generic:x", "generic:old", "generic:x", "generic:y"].map((key) => dedupe.claim(key)),
      );
      expect(answers).toEqual(["new", "duplicate", "in_flight", "new"]);
    });
  });
}
