import type { Ticket } from "@errand/channel-sdk";
import { checkClaims, checkHandled, requireMs, requireText, serializeTickets } from "../input-checks.js";
import { newRunId } from "../run-id.js";
import { acceptedReason } from "../run-rules.js";
import type { AcceptOutcome, DeliveryClaim, HandledDelivery } from "../store.js";
import type { SqliteContext, SyncOps } from "./statements.js";

/** Claims between two purges of expired delivery ids. */
const PURGE_EVERY = 64;
/** Most expired delivery ids one purge deletes, so no claim pays for a large backlog. */
const PURGE_LIMIT = 256;

/** Ticket intake and webhook delivery ids on SQLite (synchronous; the store wraps them). */
export function createIntakeOps({ db, st, now }: SqliteContext): SyncOps<"acceptTickets" | "claimDelivery" | "claimDeliveries" | "commitDelivery" | "releaseDelivery"> {
  const accept = db.transaction((tickets: readonly Ticket[], payloads: string[], engine: string, handled: readonly HandledDelivery[], at: number) => {
    const outcomes: AcceptOutcome[] = [];
    tickets.forEach((t, i) => {
      const ticket = { source: t.source, id: t.id };
      st.upsertTicket.run(t.source, t.id, payloads[i] as string, at, at);
      const latest = st.latestRun.get(t.source, t.id);
      if (latest) {
        outcomes.push({ kind: "existing", ticket, runId: latest.id, state: latest.state });
        return;
      }
      const runId = newRunId(at);
      const reason = acceptedReason(t.source);
      st.insertRun.run(runId, t.source, t.id, 1, engine, at, at, reason);
      st.insertHistory.run({ runId, from: null, to: "Queued", at, reason });
      outcomes.push({ kind: "queued", ticket, runId });
    });
    for (const d of handled) st.putDelivery.run(d.key, "done", at + d.ttlMs);
    return outcomes;
  });

  let claimsSincePurge = 0;
  const claimOne = (key: string, ttlMs: number, at: number): DeliveryClaim => {
    if (++claimsSincePurge >= PURGE_EVERY) {
      claimsSincePurge = 0;
      st.purgeDeliveries.run(at, PURGE_LIMIT);
    }
    const row = st.getDelivery.get(key);
    if (row && row.expires_at > at) return row.state === "done" ? "duplicate" : "in_flight";
    st.putDelivery.run(key, "claimed", at + ttlMs);
    return "new";
  };
  // One transaction for many claims: its BEGIN and COMMIT cost more than a claim's own two statements.
  const claim = db.transaction((keys: readonly string[], ttlMs: number, at: number) => keys.map((key) => claimOne(key, ttlMs, at)));

  return {
    acceptTickets(tickets, engine, handled = []) {
      requireText(engine, "engine");
      checkHandled(handled);
      if (tickets.length === 0 && handled.length === 0) return [];
      const payloads = serializeTickets(tickets);
      return accept.immediate(tickets, payloads, engine, handled, now());
    },
    claimDelivery(key, ttlMs) {
      return claim.immediate([requireText(key, "delivery key")], requireMs(ttlMs, "delivery TTL"), now())[0] as DeliveryClaim;
    },
    claimDeliveries(keys, ttlMs) {
      checkClaims(keys, ttlMs);
      return keys.length === 0 ? [] : claim.immediate(keys, ttlMs, now());
    },
    commitDelivery(key, ttlMs) {
      st.putDelivery.run(requireText(key, "delivery key"), "done", now() + requireMs(ttlMs, "delivery TTL"));
    },
    releaseDelivery(key) {
      st.deleteDelivery.run(requireText(key, "delivery key"));
    },
  };
}
