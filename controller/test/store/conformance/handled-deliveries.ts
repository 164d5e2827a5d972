import { describe, expect, it } from "vitest";
import type { DeliveryOutcome } from "../../../src/store/store.js";
import { expectCode, type OpenStore, sleep, ticket } from "./support.js";

const DAY = 86_400_000;
const id = (key: string, ttlMs = DAY) => ({ key, ttlMs });
const kinds = (results: DeliveryOutcome[]) =>
  results.map((r) => (r.delivery === "new" ? r.outcomes.map((o) => `${o.kind} ${o.ticket.id}`) : r.delivery));

/** Delivery ids checked and marked by acceptDeliveries, in the transaction that stores their tickets. */
export function handledDeliveryTests(open: OpenStore): void {
  describe("delivery ids checked and marked with a batch", () => {
    it("commits the tickets and their delivery ids together, and a redelivery after reopen is a duplicate", async () => {
      const { store, reopen } = await open();
      const results = await store.acceptDeliveries(
        [
          { tickets: [ticket("1"), ticket("2")], delivery: id("generic:a") },
          { tickets: [ticket("3")], delivery: id("generic:b") },
        ],
        "default",
      );
      expect(kinds(results)).toEqual([["queued 1", "queued 2"], ["queued 3"]]);
      expect(await store.claimDelivery("generic:a", DAY)).toBe("duplicate");
      await store.close();
      // A restart: a new connection knows both the tickets and their ids.
      const after = await reopen();
      expect(
        kinds(await after.acceptDeliveries([{ tickets: [ticket("1")], delivery: id("generic:a") }], "default")),
      ).toEqual(["duplicate"]);
      expect(await after.claimDelivery("generic:b", DAY)).toBe("duplicate");
      expect(await after.getTicket({ source: "generic", id: "3" })).toMatchObject({ id: "3" });
      expect(await after.claimDelivery("generic:c", DAY)).toBe("new");
      expect(await after.listRuns()).toHaveLength(3);
    });

    it("answers each delivery of a batch on its own, writing only the tickets of new ids and of deliveries without one", async () => {
      const { store } = await open();
      await store.acceptDeliveries([{ tickets: [], delivery: id("generic:done") }], "default");
      expect(await store.claimDelivery("generic:held", DAY)).toBe("new");
      const results = await store.acceptDeliveries(
        [
          { tickets: [ticket("a")], delivery: id("generic:a") },
          { tickets: [ticket("dup")], delivery: id("generic:done") },
          { tickets: [ticket("held")], delivery: id("generic:held") },
          // The same id again in the batch: its first delivery holds it now.
          { tickets: [ticket("again")], delivery: id("generic:a") },
          { tickets: [ticket("polled"), ticket("a")] },
          { tickets: [ticket("b")], delivery: id("generic:b") },
        ],
        "default",
      );
      expect(kinds(results)).toEqual([
        ["queued a"],
        "duplicate",
        "in_flight",
        "duplicate",
        ["queued polled", "existing a"],
        ["queued b"],
      ]);
      for (const skipped of ["dup", "held", "again"])
        expect(await store.getTicket({ source: "generic", id: skipped })).toBeUndefined();
      // A claimed id stays claimed: the batch does not take it from its holder.
      expect(await store.claimDelivery("generic:held", DAY)).toBe("in_flight");
      expect(await store.claimDelivery("generic:b", DAY)).toBe("duplicate");
    });

    it("stores neither tickets nor ids of a batch that fails after its first writes; the retry is new", async () => {
      const { store, failWrites } = await open();
      // deliveries fails before any ticket was written; transitions fails after the id was marked.
      for (const table of ["deliveries", "transitions"] as const) {
        const key = `generic:${table}`;
        const restore = await failWrites(table);
        await expect(
          store.acceptDeliveries([{ tickets: [ticket(table)], delivery: id(key) }], "default"),
        ).rejects.toThrow(/injected failure/);
        await restore();
        expect(await store.getTicket({ source: "generic", id: table })).toBeUndefined();
        expect(await store.listRuns({ ticket: { source: "generic", id: table } })).toEqual([]);
        expect(
          kinds(await store.acceptDeliveries([{ tickets: [ticket(table)], delivery: id(key) }], "default")),
        ).toEqual([[`queued ${table}`]]);
        expect(await store.claimDelivery(key, DAY)).toBe("duplicate");
      }
    });

    it("refuses a batch with a delivery that has no key, no TTL or no tickets array, storing none of it", async () => {
      const { store } = await open();
      const good = { tickets: [ticket("1")], delivery: id("generic:good") };
      await expectCode(
        store.acceptDeliveries([good, { tickets: [ticket("2")], delivery: id("generic:k", 0) }], "default"),
        "ERR_STORE",
      );
      await expectCode(
        store.acceptDeliveries([good, { tickets: [ticket("2")], delivery: id("") }], "default"),
        "ERR_STORE",
      );
      await expectCode(store.acceptDeliveries([good, { delivery: id("generic:k") } as never], "default"), "ERR_STORE");
      await expectCode(store.acceptDeliveries([good, { tickets: [ticket("")] }], "default"), "ERR_STORE");
      await expectCode(store.acceptDeliveries([good], ""), "ERR_STORE");
      expect(await store.getTicket({ source: "generic", id: "1" })).toBeUndefined();
      expect(await store.claimDelivery("generic:good", DAY)).toBe("new");
      expect(await store.acceptDeliveries([], "default")).toEqual([]);
    });

    it("marks an id without tickets, keeps each id for its own TTL, and takes over an expired claim", async () => {
      const { store } = await open();
      expect(kinds(await store.acceptDeliveries([{ tickets: [], delivery: id("generic:empty") }], "default"))).toEqual([
        [],
      ]);
      expect(await store.claimDelivery("generic:empty", DAY)).toBe("duplicate");
      await store.acceptDeliveries([{ tickets: [ticket("short")], delivery: id("generic:short", 1) }], "default");
      expect(await store.claimDelivery("generic:lapsed", 1)).toBe("new");
      await sleep(25);
      expect(await store.claimDelivery("generic:short", DAY)).toBe("new");
      expect(
        kinds(await store.acceptDeliveries([{ tickets: [ticket("late")], delivery: id("generic:lapsed") }], "default")),
      ).toEqual([["queued late"]]);
      expect(await store.listRuns()).toHaveLength(2);
    });

    it("lets exactly one of many stores on the database find an id new", async () => {
      const { store, reopen } = await open();
      const others = [store, await reopen(), await reopen()];
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (others[i % others.length] ?? store).acceptDeliveries(
            [{ tickets: [ticket(`race${i}`)], delivery: id("generic:race") }],
            "default",
          ),
        ),
      );
      const answers = results.map((r) => (r[0] as DeliveryOutcome).delivery);
      expect(answers.filter((a) => a === "new")).toHaveLength(1);
      expect(answers.filter((a) => a !== "new" && a !== "duplicate")).toEqual([]);
      expect(await store.listRuns()).toHaveLength(1);
    });
  });
}
