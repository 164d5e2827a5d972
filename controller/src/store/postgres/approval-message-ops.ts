import {
  APPROVAL_MESSAGE_COLUMNS,
  type ApprovalMessageRowParts,
  checkApprovalMessageRef,
  checkApprovalMessageTake,
  TAKEABLE_APPROVAL_MESSAGE,
} from "../approval-message-rules.js";
import { requireCount, requireText } from "../input-checks.js";
import { RUN_COLUMNS, type RunRow, toTaskRun, toTicket } from "../rows.js";
import { runNotFound } from "../run-rules.js";
import type { PostgresContext, StoreOps } from "./postgres-context.js";

/**
 * Picks the messages to update and holds them in one statement. SKIP LOCKED
 * passes over rows another controller is taking right now; a row another
 * controller took and committed since this statement's snapshot is re-read
 * by FOR UPDATE and fails the WHERE again (its hold is not expired).
 */
const TAKE = `
  WITH picked AS (
    SELECT r.id FROM task_runs r
    WHERE ${TAKEABLE_APPROVAL_MESSAGE}
      AND (r.approval_message_claim_expires_at IS NULL OR r.approval_message_claim_expires_at <= $1)
      AND r.approval_message_attempts < $2 AND ($3::text IS NULL OR r.id = $3)
    ORDER BY r.id LIMIT $4
    FOR UPDATE SKIP LOCKED
  )
  UPDATE task_runs r SET approval_message_claim_expires_at = $5,
    approval_message_attempts = r.approval_message_attempts + 1
  FROM picked p, tickets t
  WHERE r.id = p.id AND t.source = r.source AND t.id = r.ticket_id
  RETURNING ${RUN_COLUMNS}, ${APPROVAL_MESSAGE_COLUMNS}`;

/** The approval messages of chat A on PostgreSQL, shared by every controller on the database. */
export function createApprovalMessageOps({
  pool,
  now,
}: PostgresContext): StoreOps<"recordApprovalMessage" | "takeApprovalMessageUpdates" | "finishApprovalMessageUpdate"> {
  return {
    async recordApprovalMessage(runId, channel, ts) {
      const [id, ch, at] = checkApprovalMessageRef(runId, channel, ts);
      const { rowCount } = await pool.query(
        `UPDATE task_runs SET approval_message_channel = $1, approval_message_ts = $2
         WHERE id = $3 AND approval_message_ts IS NULL`,
        [ch, at, id],
      );
      if (rowCount === 1) return;
      const found = await pool.query("SELECT id FROM task_runs WHERE id = $1", [id]);
      if (found.rowCount === 0) throw runNotFound(runId);
    },
    async takeApprovalMessageUpdates(request) {
      const { limit, leaseMs, maxAttempts, runId } = checkApprovalMessageTake(request);
      if (limit === 0) return [];
      const at = now();
      const { rows } = await pool.query<RunRow & ApprovalMessageRowParts>(TAKE, [
        at,
        maxAttempts,
        runId,
        limit,
        at + leaseMs,
      ]);
      // RETURNING keeps no order: oldest run first, as the interface promises (ids are time-ordered).
      return rows
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((row) => ({
          run: toTaskRun(row),
          ticket: toTicket(row.payload),
          channel: row.message_channel,
          ts: row.message_ts,
          attempt: row.message_attempts,
        }));
    },
    async finishApprovalMessageUpdate(runId, updated, retryAfterMs = 0) {
      const id = requireText(runId, "run id");
      const retryAt = updated ? null : now() + requireCount(retryAfterMs, "delay before retrying a message update");
      await pool.query(
        `UPDATE task_runs SET approval_message_updated_at = $1, approval_message_claim_expires_at = $2
         WHERE id = $3 AND approval_message_updated_at IS NULL`,
        [updated ? now() : null, retryAt, id],
      );
    },
  };
}
