import type { Ticket } from "@errand/channel-sdk";
import { requireMs, requireText, serializeDeliveries, serializeTickets } from "../input-checks.js";
import { repoColumn } from "../repo-column.js";
import { newRunId } from "../run-id.js";
import { acceptedReason } from "../run-rules.js";
import type { AcceptOptions, AcceptOutcome, DeliveryClaim, DeliveryOutcome, DeliveryTickets } from "../store.js";
import type { SqliteContext, SyncOps } from "./statements.js";

/** Delivery ids checked between two purges of expired ones. */
const PURGE_EVERY = 64;
/** Most expired delivery ids one purge deletes, so no claim pays for a large backlog. */
const PURGE_LIMIT = 256;

/** Ticket intake and webhook delivery ids on SQLite (synchronous; the store wraps them). */
export function createIntakeOps({
  db,
  st,
  now,
}: SqliteContext): SyncOps<
  "acceptTickets" | "acceptDeliveries" | "claimDelivery" | "commitDelivery" | "releaseDelivery"
> {
  const ledger = createDeliveryLedger(st);
  type Hold = AcceptOptions["needsApproval"];
  const store = (tickets: readonly Ticket[], payloads: readonly string[], engine: string, at: number, hold: Hold) =>
    storeTickets(st, { tickets, payloads, engine, at, hold });

  const acceptAll = db.transaction(
    (deliveries: readonly DeliveryTickets[], payloads: string[][], engine: string, at: number, hold: Hold) =>
      deliveries.map((d, i): DeliveryOutcome => {
        if (d.delivery !== undefined) {
          ledger.purgeNowAndThen(at);
          // One statement for the usual new id; a held one is read back to tell duplicate from in flight.
          if (st.markNewDelivery.run(d.delivery.key, at + d.delivery.ttlMs, at).changes === 0) {
            return { delivery: st.getDelivery.get(d.delivery.key)?.state === "done" ? "duplicate" : "in_flight" };
          }
        }
        return { delivery: "new", outcomes: store(d.tickets, payloads[i] as string[], engine, at, hold) };
      }),
  );
  const accept = db.transaction(store);
  const claim = db.transaction((key: string, ttlMs: number, at: number) => ledger.claim(key, ttlMs, at));

  return {
    acceptTickets(tickets, engine, options = {}) {
      requireText(engine, "engine");
      const payloads = serializeTickets(tickets);
      return tickets.length === 0 ? [] : accept.immediate(tickets, payloads, engine, now(), options.needsApproval);
    },
    acceptDeliveries(deliveries, engine, options = {}) {
      requireText(engine, "engine");
      const payloads = serializeDeliveries(deliveries);
      if (deliveries.length === 0) return [];
      return acceptAll.immediate(deliveries, payloads, engine, now(), options.needsApproval);
    },
    claimDelivery(key, ttlMs) {
      return claim.immediate(requireText(key, "delivery key"), requireMs(ttlMs, "delivery TTL"), now());
    },
    commitDelivery(key, ttlMs) {
      st.putDelivery.run(requireText(key, "delivery key"), "done", now() + requireMs(ttlMs, "delivery TTL"));
    },
    releaseDelivery(key) {
      st.deleteDelivery.run(requireText(key, "delivery key"));
    },
  };
}

/** One batch of tickets as {@link storeTickets} writes it. */
interface TicketBatch {
  tickets: readonly Ticket[];
  payloads: readonly string[];
  engine: string;
  at: number;
  /** True for a new ticket whose first run waits for approval. */
  hold: ((ticket: Ticket) => boolean) | undefined;
}

/** Stores each ticket (its latest JSON) and queues a first run (or one awaiting approval) for a ticket that has none. */
function storeTickets(st: SqliteContext["st"], { tickets, payloads, engine, at, hold }: TicketBatch): AcceptOutcome[] {
  return tickets.map((t, i): AcceptOutcome => {
    const ticket = { source: t.source, id: t.id };
    st.upsertTicket.run(t.source, t.id, payloads[i] as string, at, at);
    const latest = st.latestRun.get(t.source, t.id);
    if (latest) return { kind: "existing", ticket, runId: latest.id, state: latest.state };
    const runId = newRunId(at);
    const reason = acceptedReason(t.source);
    if (hold?.(t) === true) {
      st.insertAwaitingRun.run(runId, t.source, t.id, 1, engine, at, at, reason, repoColumn(t));
      st.insertFirstAwaitingHistory.run(runId, at, reason);
      return { kind: "queued", ticket, runId, awaitingApproval: true };
    }
    st.insertRun.run(runId, t.source, t.id, 1, engine, at, at, reason, repoColumn(t));
    st.insertFirstHistory.run(runId, at, reason);
    return { kind: "queued", ticket, runId };
  });
}

/** Claiming delivery ids, and purging expired ones now and then as ids are checked (run inside a transaction). */
function createDeliveryLedger(st: SqliteContext["st"]) {
  let checksSincePurge = 0;
  const purgeNowAndThen = (at: number) => {
    if (++checksSincePurge < PURGE_EVERY) return;
    checksSincePurge = 0;
    st.purgeDeliveries.run(at, PURGE_LIMIT);
  };
  /** What a delivery id's row says at `at` (expired or absent counts as new). */
  const seenAs = (key: string, at: number): DeliveryClaim => {
    const row = st.getDelivery.get(key);
    if (row && row.expires_at > at) return row.state === "done" ? "duplicate" : "in_flight";
    return "new";
  };

  const claim = (key: string, ttlMs: number, at: number): DeliveryClaim => {
    purgeNowAndThen(at);
    const seen = seenAs(key, at);
    if (seen === "new") st.putDelivery.run(key, "claimed", at + ttlMs);
    return seen;
  };
  return { purgeNowAndThen, claim };
}
