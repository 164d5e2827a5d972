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
import type { Store } from "../store.js";
import type { PreparedStatement, SqliteContext, SyncOps } from "./statements.js";

type Names = "recordApprovalMessage" | "takeApprovalMessageUpdates" | "finishApprovalMessageUpdate";
type Row = RunRow & ApprovalMessageRowParts;
type TakeParams = { at: number; max: number; runId: string | null; limit: number };

/**
 * The approval messages of chat A on SQLite: a take reads and holds its
 * rows in one IMMEDIATE transaction (the database's single write lock), so
 * two processes never hold one message's update at once.
 */
export function createApprovalMessageOps({ db, now }: Pick<SqliteContext, "db" | "now">): SyncOps<Names> {
  const prep = <P extends unknown[] | object, R = unknown>(sql: string) =>
    db.prepare(sql) as unknown as PreparedStatement<P, R>;
  const record = prep<[string, string, string]>(
    `UPDATE task_runs SET approval_message_channel = ?, approval_message_ts = ?
     WHERE id = ? AND approval_message_ts IS NULL`,
  );
  const exists = prep<[string], { id: string }>("SELECT id FROM task_runs WHERE id = ?");
  const takeable = prep<TakeParams, Row>(
    `SELECT ${RUN_COLUMNS}, ${APPROVAL_MESSAGE_COLUMNS}
     FROM task_runs r JOIN tickets t ON t.source = r.source AND t.id = r.ticket_id
     WHERE ${TAKEABLE_APPROVAL_MESSAGE}
       AND (r.approval_message_claim_expires_at IS NULL OR r.approval_message_claim_expires_at <= @at)
       AND r.approval_message_attempts < @max AND (@runId IS NULL OR r.id = @runId)
     ORDER BY r.id LIMIT @limit`,
  );
  const hold = prep<[number, string]>(
    `UPDATE task_runs SET approval_message_claim_expires_at = ?,
       approval_message_attempts = approval_message_attempts + 1 WHERE id = ?`,
  );
  const finish = prep<[number | null, number | null, string]>(
    `UPDATE task_runs SET approval_message_updated_at = ?, approval_message_claim_expires_at = ?
     WHERE id = ? AND approval_message_updated_at IS NULL`,
  );
  const take = db.transaction((params: TakeParams, leaseMs: number) =>
    takeable.all(params).map((row) => {
      hold.run(params.at + leaseMs, row.id);
      return {
        run: toTaskRun(row),
        ticket: toTicket(row.payload),
        channel: row.message_channel,
        ts: row.message_ts,
        attempt: row.message_attempts + 1,
      };
    }),
  );
  return {
    recordApprovalMessage(runId, channel, ts) {
      const [id, ch, at] = checkApprovalMessageRef(runId, channel, ts);
      if (record.run(ch, at, id).changes === 0 && !exists.get(id)) throw runNotFound(runId);
    },
    takeApprovalMessageUpdates(request) {
      const { limit, leaseMs, maxAttempts, runId } = checkApprovalMessageTake(request);
      if (limit === 0) return [];
      return take.immediate({ at: now(), max: maxAttempts, runId, limit }, leaseMs);
    },
    finishApprovalMessageUpdate(runId, updated, retryAfterMs = 0) {
      const id = requireText(runId, "run id");
      const retryAt = updated ? null : now() + requireCount(retryAfterMs, "delay before retrying a message update");
      finish.run(updated ? now() : null, retryAt, id);
    },
  };
}

/** The store's wrapper of each synchronous operation: closed-store check and error translation, named by `action`. */
type Guard = <A extends unknown[], R>(action: string, fn: (...args: A) => R) => (...args: A) => Promise<R>;

/** The approval message operations as the store exposes them, each behind `guard`. */
export function guardedApprovalMessageOps(context: SqliteContext, guard: Guard): Pick<Store, Names> {
  const ops = createApprovalMessageOps(context);
  return {
    recordApprovalMessage: guard("recording a run's approval message", ops.recordApprovalMessage),
    takeApprovalMessageUpdates: guard("taking approval messages to update", ops.takeApprovalMessageUpdates),
    finishApprovalMessageUpdate: guard("finishing an approval message update", ops.finishApprovalMessageUpdate),
  };
}
