import { describe, expect, it } from "vitest";
import { expectCode, type OpenStore, sleep, ticket } from "./support.js";

const DAY = 86_400_000;

/** Delivery ids marked handled by acceptTickets, in the transaction that stores their tickets. */
export function handledDeliveryTests(open: OpenStore): void {
  describe("delivery ids marked with a batch", () => {
    it("commits the tickets and their delivery ids together, and a redelivery after reopen is a duplicate", async () => {
      const { store, reopen } = await open();
      expect(await store.claimDelivery("generic:a", DAY)).toBe("new");
      expect(await store.claimDelivery("generic:b", DAY)).toBe("new");
      const outcomes = await store.acceptTickets([ticket("1"), ticket("2")], "default", [
        { key: "generic:a", ttlMs: DAY },
        { key: "generic:b", ttlMs: DAY },
      ]);
      expect(outcomes.map((o) => o.kind)).toEqual(["queued", "queued"]);
      expect(await store.claimDelivery("generic:a", DAY)).toBe("duplicate");
      await store.close();
      // A restart: a new connection knows both the tickets and their ids.
      const after = await reopen();
      expect(await after.claimDelivery("generic:a", DAY)).toBe("duplicate");
      expect(await after.claimDelivery("generic:b", DAY)).toBe("duplicate");
      expect(await after.getTicket({ source: "generic", id: "2" })).toMatchObject({ id: "2" });
      expect(await after.claimDelivery("generic:c", DAY)).toBe("new");
    });

    it("stores neither tickets nor ids of a batch that fails after its first writes; released, the id is claimable again", async () => {
      const { store, failWrites } = await open();
      // deliveries fails after the tickets were written; transitions fails before any id was marked.
      for (const table of ["deliveries", "transitions"] as const) {
        const key = `generic:${table}`;
        expect(await store.claimDelivery(key, DAY)).toBe("new");
        const restore = await failWrites(table);
        await expect(store.acceptTickets([ticket(table)], "default", [{ key, ttlMs: DAY }])).rejects.toThrow(/injected failure/);
        await restore();
        expect(await store.getTicket({ source: "generic", id: table })).toBeUndefined();
        expect(await store.listRuns({ ticket: { source: "generic", id: table } })).toEqual([]);
        // Still claimed, not handled: a retry meanwhile is told to come back, not answered duplicate.
        expect(await store.claimDelivery(key, DAY)).toBe("in_flight");
        await store.releaseDelivery(key);
        expect(await store.claimDelivery(key, DAY)).toBe("new");
        await store.acceptTickets([ticket(table)], "default", [{ key, ttlMs: DAY }]);
        expect(await store.claimDelivery(key, DAY)).toBe("duplicate");
      }
    });

    it("refuses a batch with a mark that has no key or no TTL, storing none of it", async () => {
      const { store } = await open();
      await store.claimDelivery("generic:k", DAY);
      await expectCode(store.acceptTickets([ticket("1")], "default", [{ key: "generic:k", ttlMs: 0 }]), "ERR_STORE");
      await expectCode(store.acceptTickets([ticket("1")], "default", [{ key: "", ttlMs: DAY }]), "ERR_STORE");
      expect(await store.getTicket({ source: "generic", id: "1" })).toBeUndefined();
      expect(await store.claimDelivery("generic:k", DAY)).toBe("in_flight");
    });

    it("marks ids without tickets, and keeps each for its own TTL", async () => {
      const { store } = await open();
      expect(await store.acceptTickets([], "default", [{ key: "generic:empty", ttlMs: DAY }])).toEqual([]);
      expect(await store.claimDelivery("generic:empty", DAY)).toBe("duplicate");
      await store.acceptTickets([ticket("short")], "default", [{ key: "generic:short", ttlMs: 1 }]);
      await sleep(25);
      expect(await store.claimDelivery("generic:short", DAY)).toBe("new");
      expect(await store.listRuns()).toHaveLength(1);
    });

    it("marks an id that another store on the database claimed", async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      expect(await other.claimDelivery("generic:shared", DAY)).toBe("new");
      await store.acceptTickets([ticket("s")], "default", [{ key: "generic:shared", ttlMs: DAY }]);
      expect(await other.claimDelivery("generic:shared", DAY)).toBe("duplicate");
    });
  });
}
