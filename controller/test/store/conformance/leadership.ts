import { describe, expect, it } from "vitest";
import type { Leadership, Store } from "../../../src/store/store.js";
import { expectCode, type OpenStore, sleep } from "./support.js";

const MINUTE = 60_000;

/**
 * Calls tryLead until `owner` leads, for at most 5 s. A lead held by a
 * store that stopped (a lease that ran out, a session the server ended)
 * is free once the store has noticed, which takes a server a few
 * milliseconds: the bound is for a store that never frees it.
 */
async function leadsSoon(store: Store, owner: string): Promise<Leadership> {
  const end = Date.now() + 5000;
  for (;;) {
    const answer = await store.tryLead(owner, MINUTE);
    if (answer.leading || Date.now() > end) return answer;
    await sleep(10);
  }
}

/** tryLead and resign: one leader among every process on the database. */
export function leadershipTests(open: OpenStore): void {
  describe("leadership of the loop", () => {
    it("lets one of two stores lead, tells the other who does, and renews the leader's lead", async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      expect(await store.tryLead("host-a/1", MINUTE)).toEqual({ leading: true, leader: "host-a/1" });
      expect(await other.tryLead("host-b/2", MINUTE)).toEqual({ leading: false, leader: "host-a/1" });
      expect(await store.tryLead("host-a/1", MINUTE)).toEqual({ leading: true, leader: "host-a/1" });
      expect(await other.tryLead("host-b/2", MINUTE)).toEqual({ leading: false, leader: "host-a/1" });
    });

    it("hands the lead over at once when the leader resigns; a standby's resign changes nothing", async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      await store.tryLead("a", MINUTE);
      await other.resign("b");
      expect((await other.tryLead("b", MINUTE)).leading).toBe(false);
      await store.resign("a");
      expect(await other.tryLead("b", MINUTE)).toEqual({ leading: true, leader: "b" });
      expect(await store.tryLead("a", MINUTE)).toEqual({ leading: false, leader: "b" });
    });

    it("gives one lead to one of several stores trying at once", async () => {
      const { store, reopen } = await open();
      const stores = [store, await reopen(), await reopen(), await reopen()];
      const answers = await Promise.all(stores.map((s, i) => s.tryLead(`owner-${i}`, MINUTE)));
      const leaders = answers.filter((a) => a.leading);
      expect(leaders).toHaveLength(1);
      for (const answer of answers) expect(answer.leader).toBe(leaders[0]?.leader);
    });

    it("passes the lead on when the leader stops renewing it for longer than its lease", async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      expect((await store.tryLead("stalled", 1)).leading).toBe(true);
      await sleep(25);
      expect(await leadsSoon(other, "next")).toEqual({ leading: true, leader: "next" });
      expect(await store.tryLead("stalled", MINUTE)).toEqual({ leading: false, leader: "next" });
    });

    it("passes the lead on when the leader's store is closed", async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      await store.tryLead("closing", 1);
      await store.close();
      await sleep(25);
      expect(await leadsSoon(other, "next")).toEqual({ leading: true, leader: "next" });
    });

    it("refuses an empty owner, a lease that is not a positive number of ms, and calls after close", async () => {
      const { store } = await open();
      await expectCode(store.tryLead("", MINUTE), "ERR_STORE");
      await expectCode(store.tryLead("a", 0), "ERR_STORE");
      await expectCode(store.resign(""), "ERR_STORE");
      await store.close();
      expect((await expectCode(store.tryLead("a", MINUTE), "ERR_STORE")).message).toMatch(/closed/);
      expect((await expectCode(store.resign("a"), "ERR_STORE")).message).toMatch(/closed/);
    });
  });
}
