import { join } from "node:path";
import type { Ticket } from "@errand/channel-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { createBatchedSink } from "../../src/intake/batched-sink.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { DeliveryTickets, Store } from "../../src/store/store.js";

const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

async function openStore(): Promise<{ store: Store; batches: DeliveryTickets[][] }> {
  const store = await createSqliteStore({ path: join(tempDir("errand-sink-"), "errand.db"), checkpointIntervalMs: 0 });
  stores.push(store);
  const batches: DeliveryTickets[][] = [];
  // The real store, with each call it gets recorded: one call is one transaction.
  const counting: Store = {
    ...store,
    acceptDeliveries: (deliveries, engine) => {
      batches.push([...deliveries]);
      return store.acceptDeliveries(deliveries, engine);
    },
  };
  return { store: counting, batches };
}

const ticket = (id: string, extra: Partial<Ticket> = {}): Ticket => ({
  id,
  title: `T ${id}`,
  description: "",
  ticketType: "issue",
  repoUrl: "",
  externalUrl: "",
  labels: [],
  source: "tracker_b",
  ...extra,
});

describe("the batched sink", () => {
  it("writes everything handed to it in one event-loop turn with one transaction, and answers each caller with its own outcomes", async () => {
    const { store, batches } = await openStore();
    let committed = 0;
    const sink = createBatchedSink({ store, engine: "e", onCommitted: () => committed++ });
    const [a, b, c] = await Promise.all([
      sink.accept([ticket("1"), ticket("2")]),
      sink.accept([ticket("3")]),
      sink.accept([ticket("1")]),
    ]);
    expect(batches).toHaveLength(1);
    expect(a?.map((o) => [o.ticket.id, o.kind])).toEqual([
      ["1", "queued"],
      ["2", "queued"],
    ]);
    expect(b?.map((o) => [o.ticket.id, o.kind])).toEqual([["3", "queued"]]);
    expect(c?.map((o) => [o.ticket.id, o.kind])).toEqual([["1", "existing"]]);
    expect(committed).toBe(1);
    await sink.accept([ticket("4")]);
    expect(batches).toHaveLength(2);
  });

  it("checks and marks webhook delivery ids in the same transaction, answering each delivery on its own", async () => {
    const { store, batches } = await openStore();
    const stored: string[] = [];
    const sink = createBatchedSink({
      store,
      engine: "e",
      onCommitted: (outcomes) => stored.push(...outcomes.map((o) => o.ticket.id)),
    });
    const day = { ttlMs: 86_400_000 };
    const [first, again, polled, other] = await Promise.all([
      sink.acceptDelivery([ticket("1")], { key: "tracker_b:d1", ...day }),
      sink.acceptDelivery([ticket("1")], { key: "tracker_b:d1", ...day }),
      sink.accept([ticket("2")]),
      sink.acceptDelivery([ticket("3")], { key: "tracker_b:d3", ...day }),
    ]);
    expect(batches).toHaveLength(1);
    expect(first).toMatchObject({ delivery: "new", outcomes: [{ kind: "queued", ticket: { id: "1" } }] });
    expect(again).toEqual({ delivery: "duplicate" });
    expect(polled.map((o) => o.kind)).toEqual(["queued"]);
    expect(other).toMatchObject({ delivery: "new", outcomes: [{ kind: "queued", ticket: { id: "3" } }] });
    // The loop hears of every stored ticket, once.
    expect(stored).toEqual(["1", "2", "3"]);
    expect(await sink.acceptDelivery([ticket("1")], { key: "tracker_b:d1", ...day })).toEqual({
      delivery: "duplicate",
    });
    expect(await store.claimDelivery("tracker_b:d3", 1000)).toBe("duplicate");
  });

  it("gives a tracker's tickets without a repository the configured one, and leaves the others alone", async () => {
    const { store } = await openStore();
    const sink = createBatchedSink({
      store,
      engine: "e",
      onCommitted: () => {},
      defaultRepo: { source: "tracker_b", url: "https://github.com/acme/shop" },
    });
    await sink.accept([
      ticket("1"),
      ticket("2", { repoUrl: "https://github.com/acme/other" }),
      ticket("3", { source: "generic" }),
    ]);
    expect((await store.getTicket({ source: "tracker_b", id: "1" }))?.repoUrl).toBe("https://github.com/acme/shop");
    expect((await store.getTicket({ source: "tracker_b", id: "2" }))?.repoUrl).toBe("https://github.com/acme/other");
    expect((await store.getTicket({ source: "generic", id: "3" }))?.repoUrl).toBe("");
  });

  it("rejects every caller of a batch the store could not write, so each request is answered 503 and retried", async () => {
    const { store } = await openStore();
    const failing: Store = { ...store, acceptDeliveries: () => Promise.reject(new Error("disk full")) };
    const sink = createBatchedSink({ store: failing, engine: "e", onCommitted: () => {} });
    const results = await Promise.allSettled([sink.accept([ticket("1")]), sink.accept([ticket("2")])]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });
});
