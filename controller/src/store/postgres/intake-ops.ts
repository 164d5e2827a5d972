import type { Ticket } from "@errand/channel-sdk";
import type { Pool, PoolClient } from "pg";
import type { RunState } from "../../runs/task-run.js";
import { requireMs, requireText, serializeDeliveries, serializeTickets } from "../input-checks.js";
import { repoColumn } from "../repo-column.js";
import { newRunId } from "../run-id.js";
import { acceptedReason } from "../run-rules.js";
import type { AcceptOptions, AcceptOutcome, DeliveryClaim, DeliveryOutcome, DeliveryTickets } from "../store.js";
import { inTransaction } from "./in-transaction.js";
import type { PostgresContext, StoreOps } from "./postgres-context.js";

/** Claims between two purges of expired delivery ids. */
const PURGE_EVERY = 64;
/** Most expired delivery ids one purge deletes, so no claim pays for a large backlog. */
const PURGE_LIMIT = 256;

// Rows go in in the order given: every batch locks its tickets in key order. `xmax = 0` only on a row this statement
// inserted (an updated one carries the updating transaction's id): a ticket new to the store, which has no runs yet
// (a run's foreign key needs its ticket), so the batch looks up the latest runs of the other tickets only.
const UPSERT_TICKETS = `
  INSERT INTO tickets (source, id, payload, first_seen_at, last_seen_at)
  SELECT s, i, p, $4::bigint, $4::bigint FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS u(s, i, p, n) ORDER BY n
  ON CONFLICT (source, id) DO UPDATE SET payload = EXCLUDED.payload, last_seen_at = EXCLUDED.last_seen_at
  RETURNING source, id, xmax = 0 AS inserted`;
const LATEST_RUNS = `
  SELECT DISTINCT ON (r.source, r.ticket_id) r.source, r.ticket_id, r.id, r.state
  FROM task_runs r JOIN unnest($1::text[], $2::text[]) AS u(s, i) ON r.source = u.s AND r.ticket_id = u.i
  ORDER BY r.source, r.ticket_id, r.attempt DESC`;
// The repository comes with each run; NULL leaves it to the trigger (repo-url-migration.ts).
const INSERT_RUNS = `
  WITH runs AS (
    INSERT INTO task_runs (id, source, ticket_id, attempt, state, engine, created_at, updated_at, reason, repo_url)
    SELECT id, s, i, 1, st, $5::text, $6::bigint, $6::bigint, r, u.repo
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $7::text[], $8::text[]) AS u(id, s, i, r, st, repo)
    RETURNING id, reason, state
  )
  INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason) SELECT id, 1, NULL, state, $6::bigint, reason FROM runs`;
const CLAIM_DELIVERY = `
  INSERT INTO deliveries (key, state, expires_at) VALUES ($1, 'claimed', $2)
  ON CONFLICT (key) DO UPDATE SET state = 'claimed', expires_at = EXCLUDED.expires_at WHERE deliveries.expires_at <= $3`;
const PUT_DELIVERY = `
  INSERT INTO deliveries (key, state, expires_at) VALUES ($1, $2, $3)
  ON CONFLICT (key) DO UPDATE SET state = EXCLUDED.state, expires_at = EXCLUDED.expires_at`;
// Marks every id that is absent or expired, in key order as the tickets (two batches never lock one
// another's ids in opposite orders), and returns those. A conflicting row is locked even when not updated.
const MARK_NEW_DELIVERIES = `
  INSERT INTO deliveries (key, state, expires_at)
  SELECT k, 'done', e FROM unnest($1::text[], $2::bigint[]) AS u(k, e) ORDER BY k
  ON CONFLICT (key) DO UPDATE SET state = 'done', expires_at = EXCLUDED.expires_at WHERE deliveries.expires_at <= $3
  RETURNING key`;
const PURGE_DELIVERIES = `
  DELETE FROM deliveries WHERE key IN (SELECT key FROM deliveries WHERE expires_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`;

type TicketRow = [source: string, id: string, payload: string, repo: string | null];
const keyOf = (source: string, id: string) => JSON.stringify([source, id]);
const byKey = (a: TicketRow, b: TicketRow) =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;

/** One row per ticket, with its last payload of the batch (the one stored), in key order (no deadlock between batches). */
function ticketRows(tickets: readonly Ticket[], payloads: readonly string[]): TicketRow[] {
  const rows = new Map<string, TicketRow>();
  tickets.forEach((t, i) => rows.set(keyOf(t.source, t.id), [t.source, t.id, payloads[i] as string, repoColumn(t)]));
  return [...rows.values()].sort(byKey);
}

/** Writes a batch's tickets and their first runs (Queued, or AwaitingApproval when `hold` says so), in `client`'s transaction. */
async function storeTickets(
  client: PoolClient,
  tickets: readonly Ticket[],
  payloads: readonly string[],
  engine: string,
  at: number,
  hold: AcceptOptions["needsApproval"],
): Promise<AcceptOutcome[]> {
  const sorted = ticketRows(tickets, payloads);
  const sources = sorted.map((r) => r[0]);
  const ids = sorted.map((r) => r[1]);
  const upserted = await client.query<{ source: string; id: string; inserted: boolean }>(UPSERT_TICKETS, [
    sources,
    ids,
    sorted.map((r) => r[2]),
    at,
  ]);
  const seenBefore = upserted.rows.filter((r) => !r.inserted);
  const known = new Map<string, { runId: string; state: RunState }>();
  if (seenBefore.length > 0) {
    const latest = await client.query<{ source: string; ticket_id: string; id: string; state: RunState }>(LATEST_RUNS, [
      seenBefore.map((r) => r.source),
      seenBefore.map((r) => r.id),
    ]);
    for (const r of latest.rows) known.set(keyOf(r.source, r.ticket_id), { runId: r.id, state: r.state });
  }
  const repoOf = new Map(sorted.map((r) => [keyOf(r[0], r[1]), r[3]]));
  const fresh = {
    id: [] as string[],
    source: [] as string[],
    ticket: [] as string[],
    reason: [] as string[],
    state: [] as RunState[],
    repo: [] as (string | null)[],
  };
  const outcomes = tickets.map((t): AcceptOutcome => {
    const ticket = { source: t.source, id: t.id };
    const key = keyOf(t.source, t.id);
    const existing = known.get(key);
    if (existing) return { kind: "existing", ticket, runId: existing.runId, state: existing.state };
    const runId = newRunId(at);
    const awaiting = hold?.(t) === true;
    const state: RunState = awaiting ? "AwaitingApproval" : "Queued";
    known.set(key, { runId, state });
    fresh.id.push(runId);
    fresh.source.push(t.source);
    fresh.ticket.push(t.id);
    fresh.reason.push(acceptedReason(t.source));
    fresh.state.push(state);
    fresh.repo.push(repoOf.get(key) ?? null);
    return awaiting ? { kind: "queued", ticket, runId, awaitingApproval: true } : { kind: "queued", ticket, runId };
  });
  if (fresh.id.length > 0)
    await client.query(INSERT_RUNS, [
      fresh.id,
      fresh.source,
      fresh.ticket,
      fresh.reason,
      engine,
      at,
      fresh.state,
      fresh.repo,
    ]);
  return outcomes;
}

/**
 * Checks and marks the delivery ids of a batch in `client`'s transaction:
 * `new` for each id that was absent or expired (marked handled now), else
 * what its row says. Each key's expiry is that of its first delivery.
 */
async function markDeliveries(
  client: PoolClient,
  deliveries: readonly DeliveryTickets[],
  at: number,
): Promise<Map<string, DeliveryClaim>> {
  const expiry = new Map<string, number>();
  for (const d of deliveries)
    if (d.delivery !== undefined && !expiry.has(d.delivery.key)) expiry.set(d.delivery.key, at + d.delivery.ttlMs);
  const found = new Map<string, DeliveryClaim>();
  if (expiry.size === 0) return found;
  const keys = [...expiry.keys()].sort();
  const marked = await client.query<{ key: string }>(MARK_NEW_DELIVERIES, [keys, keys.map((k) => expiry.get(k)), at]);
  for (const row of marked.rows) found.set(row.key, "new");
  const held = keys.filter((k) => !found.has(k));
  if (held.length > 0) {
    const { rows } = await client.query<{ key: string; state: "claimed" | "done" }>(
      "SELECT key, state FROM deliveries WHERE key = ANY($1::text[])",
      [held],
    );
    for (const row of rows) found.set(row.key, row.state === "done" ? "duplicate" : "in_flight");
  }
  return found;
}

/** Claims one delivery id: an upsert, then a read when the id was there, each committed on its own. */
async function claimOn(db: Pool, key: string, ttlMs: number, at: number): Promise<DeliveryClaim> {
  // The row may change between the insert and the read (released, purged): then the claim is tried again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db.query(CLAIM_DELIVERY, [key, at + ttlMs, at]);
    if (inserted.rowCount === 1) return "new";
    const { rows } = await db.query<{ state: "claimed" | "done"; expires_at: number }>(
      "SELECT state, expires_at FROM deliveries WHERE key = $1",
      [key],
    );
    const row = rows[0];
    if (row && row.expires_at > at) return row.state === "done" ? "duplicate" : "in_flight";
  }
  // Still changing under our feet: someone is handling this id right now.
  return "in_flight";
}

/**
 * Ticket intake and webhook delivery ids on PostgreSQL. A batch is one
 * transaction whose upsert locks each ticket's row first: a second batch
 * holding the same ticket, in any process, waits for the commit and then
 * finds the run the first one created, so no ticket gets two first runs.
 */
export function createIntakeOps({
  pool,
  now,
}: PostgresContext): StoreOps<
  "acceptTickets" | "acceptDeliveries" | "claimDelivery" | "commitDelivery" | "releaseDelivery"
> {
  let claimsSincePurge = 0;
  const purgeNowAndThen = async (claims: number, at: number) => {
    claimsSincePurge += claims;
    if (claimsSincePurge < PURGE_EVERY) return;
    claimsSincePurge = 0;
    await pool.query(PURGE_DELIVERIES, [at, PURGE_LIMIT]);
  };
  return {
    async acceptTickets(tickets, engine, options = {}) {
      requireText(engine, "engine");
      const payloads = serializeTickets(tickets);
      if (tickets.length === 0) return [];
      const at = now();
      return inTransaction(pool, (client) =>
        storeTickets(client, tickets, payloads, engine, at, options.needsApproval),
      );
    },
    async acceptDeliveries(deliveries, engine, options = {}) {
      requireText(engine, "engine");
      const payloads = serializeDeliveries(deliveries);
      if (deliveries.length === 0) return [];
      const at = now();
      await purgeNowAndThen(deliveries.filter((d) => d.delivery !== undefined).length, at);
      return inTransaction(pool, async (client) => {
        const found = await markDeliveries(client, deliveries, at);
        // The deliveries written: those without an id, and the first delivery of each new id.
        const tickets: Ticket[] = [];
        const texts: string[] = [];
        const spans: { index: number; start: number }[] = [];
        const results: DeliveryOutcome[] = deliveries.map((d, index) => {
          if (d.delivery !== undefined) {
            // A row locked by another transaction that then vanished (released, purged): the sender's retry sorts it out.
            const seen = found.get(d.delivery.key) ?? "in_flight";
            if (seen !== "new") return { delivery: seen };
            found.set(d.delivery.key, "duplicate");
          }
          spans.push({ index, start: tickets.length });
          tickets.push(...d.tickets);
          texts.push(...(payloads[index] as string[]));
          return { delivery: "new", outcomes: [] };
        });
        const outcomes =
          tickets.length === 0 ? [] : await storeTickets(client, tickets, texts, engine, at, options.needsApproval);
        spans.forEach(({ index, start }, i) => {
          const end = spans[i + 1]?.start ?? outcomes.length;
          results[index] = { delivery: "new", outcomes: outcomes.slice(start, end) };
        });
        return results;
      });
    },

    async claimDelivery(key, ttlMs) {
      requireText(key, "delivery key");
      requireMs(ttlMs, "delivery TTL");
      const at = now();
      await purgeNowAndThen(1, at);
      return claimOn(pool, key, ttlMs, at);
    },
    async commitDelivery(key, ttlMs) {
      await pool.query(PUT_DELIVERY, [
        requireText(key, "delivery key"),
        "done",
        now() + requireMs(ttlMs, "delivery TTL"),
      ]);
    },
    async releaseDelivery(key) {
      await pool.query("DELETE FROM deliveries WHERE key = $1", [requireText(key, "delivery key")]);
    },
  };
}
