import { describe, expect, it } from "vitest";
import type { RunWithTicket } from "../../../src/runs/task-run.js";
import { type OpenStore, runIn, sleep, ticket } from "./support.js";

const MINUTE = 60_000;
const ids = (claimed: RunWithTicket[]) => claimed.map((c) => c.ticket.id);

/** claimQueued, releaseClaim, releaseAllClaims: order, exclusivity, leases. */
export function claimTests(open: OpenStore): void {
  describe("claiming queued runs", () => {
    it("hands out Queued runs oldest first, up to the limit, with their tickets", async () => {
      const { store } = await open();
      await store.acceptTickets([ticket("a"), ticket("b"), ticket("c")], "default");
      await store.acceptTickets([ticket("d")], "default");
      const first = await store.claimQueued("loop", 2, MINUTE);
      expect(ids(first)).toEqual(["a", "b"]);
      expect(first[0]?.ticket).toEqual(ticket("a"));
      expect(first[0]?.run).toMatchObject({ state: "Queued", attempt: 1, ticket: { source: "generic", id: "a" } });
      expect(ids(await store.claimQueued("loop", 5, MINUTE))).toEqual(["c", "d"]);
      expect(await store.claimQueued("loop", 0, MINUTE)).toEqual([]);
    });

    it("skips every unexpired claim, the owner's own included, until it is released", async () => {
      const { store } = await open();
      await store.acceptTickets([ticket("a")], "default");
      const [claimed] = await store.claimQueued("one", 1, MINUTE);
      expect(await store.claimQueued("one", 1, MINUTE)).toEqual([]);
      expect(await store.claimQueued("two", 1, MINUTE)).toEqual([]);
      await store.releaseClaim(claimed?.run.id as string, "two");
      expect(await store.claimQueued("two", 1, MINUTE)).toEqual([]);
      await store.releaseClaim(claimed?.run.id as string, "one");
      expect(ids(await store.claimQueued("two", 1, MINUTE))).toEqual(["a"]);
    });

    it("gives a run whose lease ran out to the next caller", async () => {
      const { store } = await open();
      await store.acceptTickets([ticket("a"), ticket("b")], "default");
      expect(ids(await store.claimQueued("alive", 1, MINUTE))).toEqual(["a"]);
      expect(ids(await store.claimQueued("dead", 1, 1))).toEqual(["b"]);
      await sleep(25);
      expect(ids(await store.claimQueued("next", 5, MINUTE))).toEqual(["b"]);
    });

    it("drops every claim on Queued runs with releaseAllClaims", async () => {
      const { store } = await open();
      await store.acceptTickets([ticket("a"), ticket("b"), ticket("c")], "default");
      await store.claimQueued("gone", 2, MINUTE);
      expect(await store.releaseAllClaims()).toBe(2);
      expect(ids(await store.claimQueued("new", 5, MINUTE))).toEqual(["a", "b", "c"]);
      expect(await store.releaseAllClaims()).toBe(3);
      expect(await store.releaseAllClaims()).toBe(0);
    });

    it("never hands out a run that left Queued", async () => {
      const { store } = await open();
      for (const state of ["Running", "Succeeded", "Failed", "TimedOut", "Cancelled", "Refused"] as const)
        await runIn(store, state);
      expect(await store.claimQueued("loop", 10, MINUTE)).toEqual([]);
      await store.acceptTickets([ticket("q")], "default");
      const [claimed] = await store.claimQueued("loop", 1, MINUTE);
      await store.transition({
        runId: claimed?.run.id as string,
        from: ["Queued"],
        to: "Running",
        reason: "slot free",
      });
      await store.releaseClaim(claimed?.run.id as string, "loop");
      expect(await store.claimQueued("loop", 10, MINUTE)).toEqual([]);
    });

    it("hands each run to exactly one of two stores claiming at once", async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      await store.acceptTickets(
        Array.from({ length: 40 }, (_, i) => ticket(`x${i}`)),
        "default",
      );
      const seen: string[] = [];
      // Bounded: a store that hands out claimed runs again fails below instead of looping.
      for (let round = 0; round < 20; round++) {
        const [a, b] = await Promise.all([store.claimQueued("A", 3, MINUTE), other.claimQueued("B", 3, MINUTE)]);
        if (a.length + b.length === 0) break;
        seen.push(...ids(a), ...ids(b));
      }
      expect(seen).toHaveLength(40);
      expect(new Set(seen).size).toBe(40);
    });

    it("hands out a claim taken by a store that was closed, once its lease ends", async () => {
      const { store, reopen } = await open();
      await store.acceptTickets([ticket("a")], "default");
      await store.claimQueued("crashed", 1, 1);
      await store.close();
      const again = await reopen();
      await sleep(25);
      expect(ids(await again.claimQueued("restarted", 1, MINUTE))).toEqual(["a"]);
    });
  });
}
