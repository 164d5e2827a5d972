import { requireCount, requireMs, requireText } from "../input-checks.js";
import { RUN_COLUMNS, type RunRow, toTaskRun, toTicket } from "../rows.js";
import type { PostgresContext, StoreOps } from "./postgres-context.js";

/**
 * Picks the oldest claimable Queued runs and claims them in one statement.
 * SKIP LOCKED passes over rows another controller is claiming right now;
 * a row another controller claimed and committed since this statement's
 * snapshot is re-read by FOR UPDATE and fails the WHERE again. Either way
 * no two callers ever hold a claim on one run.
 */
const CLAIM = `
  WITH picked AS (
    SELECT id FROM task_runs
    WHERE state = 'Queued' AND (claim_expires_at IS NULL OR claim_expires_at <= $1)
    ORDER BY created_at, id LIMIT $2
    FOR UPDATE SKIP LOCKED
  )
  UPDATE task_runs r SET claimed_by = $3, claim_expires_at = $4
  FROM picked p, tickets t
  WHERE r.id = p.id AND t.source = r.source AND t.id = r.ticket_id
  RETURNING ${RUN_COLUMNS}, t.payload`;

/** Takes the oldest marked ends and clears their marks in one statement; SKIP LOCKED keeps two takers apart. */
const TAKE_UNANNOUNCED = `
  WITH picked AS (
    SELECT id FROM task_runs WHERE announce_pending
    ORDER BY finished_at, id LIMIT $1
    FOR UPDATE SKIP LOCKED
  )
  UPDATE task_runs r SET announce_pending = false
  FROM picked p, tickets t
  WHERE r.id = p.id AND t.source = r.source AND t.id = r.ticket_id
  RETURNING ${RUN_COLUMNS}, t.payload`;

const byAge = (a: RunRow, b: RunRow) => a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const byEnd = (a: RunRow, b: RunRow) =>
  (a.finished_at ?? 0) - (b.finished_at ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Claims on Queued runs, and on ends to announce, shared by every controller on the database. */
export function createClaimOps({
  pool,
  now,
}: PostgresContext): StoreOps<
  "claimQueued" | "releaseAllClaims" | "releaseClaim" | "takeUnannounced" | "claimApprovalAnnouncement"
> {
  return {
    async claimQueued(owner, limit, leaseMs) {
      requireText(owner, "claim owner");
      if (requireCount(limit, "claim limit") === 0) return [];
      requireMs(leaseMs, "claim lease");
      const at = now();
      const { rows } = await pool.query<RunRow & { payload: string }>(CLAIM, [at, limit, owner, at + leaseMs]);
      // RETURNING keeps no order: oldest first, as the interface promises.
      return rows.sort(byAge).map((row) => ({ run: toTaskRun(row), ticket: toTicket(row.payload) }));
    },
    async releaseAllClaims() {
      const result = await pool.query(
        "UPDATE task_runs SET claimed_by = NULL, claim_expires_at = NULL WHERE state = 'Queued' AND claimed_by IS NOT NULL",
      );
      return result.rowCount ?? 0;
    },
    async takeUnannounced(limit) {
      if (requireCount(limit, "limit of runs to announce") === 0) return [];
      const { rows } = await pool.query<RunRow & { payload: string }>(TAKE_UNANNOUNCED, [limit]);
      return rows.sort(byEnd).map((row) => ({ run: toTaskRun(row), ticket: toTicket(row.payload) }));
    },
    async claimApprovalAnnouncement(runId) {
      // The one UPDATE that finds the mark unset announces the wait; the row lock orders racing callers.
      const { rowCount } = await pool.query(
        `UPDATE task_runs SET approval_announced_at = $1
         WHERE id = $2 AND state = 'AwaitingApproval' AND approval_announced_at IS NULL`,
        [now(), requireText(runId, "run id")],
      );
      return rowCount === 1;
    },
    async releaseClaim(runId, owner) {
      await pool.query(
        "UPDATE task_runs SET claimed_by = NULL, claim_expires_at = NULL WHERE id = $1 AND claimed_by = $2 AND state = 'Queued'",
        [requireText(runId, "run id"), requireText(owner, "claim owner")],
      );
    },
  };
}
