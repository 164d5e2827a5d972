import { describe, expect, it } from "vitest";
import { createMemoryDedupeStore, type DedupeStore } from "../src/webhook/index.js";
import { postJson } from "./helpers/http.js";
import { startServer } from "./helpers/server.js";

const story = (id: number) => ({ actions: [{ id, entity_type: "story", action: "update", name: `S${id}` }] });

/** A real in-memory dedupe store whose every call is recorded. */
function recordingDedupe() {
  const inner = createMemoryDedupeStore();
  const calls: string[] = [];
  const store: DedupeStore = {
    claim(key) {
      calls.push(`claim ${key}`);
      return inner.claim(key);
    },
    commit(key) {
      calls.push(`commit ${key}`);
      return inner.commit(key);
    },
    release(key) {
      calls.push(`release ${key}`);
      return inner.release(key);
    },
  };
  return { inner, store, calls };
}

describe("hand-off: a ticket handler that commits the delivery id itself", () => {
  it("gets the claimed key, and the server does not commit it again when the handler says it did", async () => {
    const dedupe = recordingDedupe();
    const keys: Array<string | undefined> = [];
    const t = await startServer(
      {},
      {
        dedupeStore: dedupe.store,
        onTickets: (_tickets, ctx) => {
          keys.push(ctx.deliveryKey);
          if (ctx.deliveryKey === undefined) return { deliveryCommitted: false };
          // As the controller's sink does: the id is marked in the write that stores the tickets.
          dedupe.inner.commit(ctx.deliveryKey);
          return { deliveryCommitted: true };
        },
      },
    );
    expect((await postJson(t.base, "/webhooks/tracker", story(1), { "idempotency-key": "d-1" })).json.status).toBe(
      "accepted",
    );
    expect((await postJson(t.base, "/webhooks/tracker", story(1), { "idempotency-key": "d-1" })).json).toEqual({
      status: "duplicate",
    });
    expect((await postJson(t.base, "/webhooks/tracker", story(2))).json.status).toBe("accepted");
    expect(keys).toEqual(["tracker_b:d-1", undefined]);
    expect(dedupe.calls).toEqual(["claim tracker_b:d-1", "claim tracker_b:d-1"]);
  });

  it("commits the id itself after a handler that reports nothing (errand webhook serve's handlers)", async () => {
    const dedupe = recordingDedupe();
    const t = await startServer({}, { dedupeStore: dedupe.store, onTickets: () => {} });
    expect((await postJson(t.base, "/webhooks/tracker", story(3), { "idempotency-key": "d-3" })).json.status).toBe(
      "accepted",
    );
    expect(dedupe.calls).toEqual(["claim tracker_b:d-3", "commit tracker_b:d-3"]);
  });

  it("releases the id when the handler fails, so the retry goes through", async () => {
    const dedupe = recordingDedupe();
    let fail = true;
    const t = await startServer(
      {},
      {
        dedupeStore: dedupe.store,
        onTickets: (_tickets, ctx) => {
          if (fail) throw new Error("batch failed");
          dedupe.inner.commit(ctx.deliveryKey as string);
          return { deliveryCommitted: true };
        },
      },
    );
    expect((await postJson(t.base, "/webhooks/tracker", story(4), { "idempotency-key": "d-4" })).status).toBe(503);
    fail = false;
    expect((await postJson(t.base, "/webhooks/tracker", story(4), { "idempotency-key": "d-4" })).json.status).toBe(
      "accepted",
    );
    expect(dedupe.calls).toEqual(["claim tracker_b:d-4", "release tracker_b:d-4", "claim tracker_b:d-4"]);
  });
});

describe("hand-off: a ticket handler that checks the delivery id itself (dedupeWithTickets)", () => {
  it("claims nothing: the handler gets the key, and its answer for a known id is the server's", async () => {
    const dedupe = recordingDedupe();
    // As the controller's sink does: the id is checked and marked in the write that stores the tickets.
    const seen = new Map<string, "duplicate" | "in_flight">([["tracker_b:held", "in_flight"]]);
    const t = await startServer(
      {},
      {
        dedupeStore: dedupe.store,
        dedupeWithTickets: true,
        onTickets: (_tickets, ctx) => {
          const key = ctx.deliveryKey as string;
          const known = seen.get(key);
          if (known !== undefined) return { deliveryCommitted: false, seen: known };
          seen.set(key, "duplicate");
          return { deliveryCommitted: true };
        },
      },
    );
    expect((await postJson(t.base, "/webhooks/tracker", story(1), { "idempotency-key": "d-1" })).json).toEqual({
      status: "accepted",
      tickets: ["1"],
    });
    expect((await postJson(t.base, "/webhooks/tracker", story(1), { "idempotency-key": "d-1" })).json).toEqual({
      status: "duplicate",
    });
    const held = await postJson(t.base, "/webhooks/tracker", story(2), { "idempotency-key": "held" });
    expect(held.status).toBe(503);
    expect(held.json.error.code).toBe("ERR_DELIVERY_IN_PROGRESS");
    expect(held.headers["retry-after"]).toBe("1");
    expect(dedupe.calls).toEqual([]);
  });

  it("commits the id after a handler that did not, and releases nothing when the handler fails", async () => {
    const dedupe = recordingDedupe();
    let fail = true;
    const t = await startServer(
      {},
      {
        dedupeStore: dedupe.store,
        dedupeWithTickets: true,
        onTickets: () => {
          if (fail) throw new Error("batch failed");
          return { deliveryCommitted: false };
        },
      },
    );
    // Its transaction failed, so the id is as it was: there is no claim of the server's to give back.
    expect((await postJson(t.base, "/webhooks/tracker", story(5), { "idempotency-key": "d-5" })).status).toBe(503);
    fail = false;
    expect((await postJson(t.base, "/webhooks/tracker", story(5), { "idempotency-key": "d-5" })).json.status).toBe(
      "accepted",
    );
    expect(dedupe.calls).toEqual(["commit tracker_b:d-5"]);
  });
});
