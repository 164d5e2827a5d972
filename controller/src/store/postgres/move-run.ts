import type { Pool, PoolClient } from "pg";
import { isTerminal, type RunState } from "../../runs/task-run.js";
import { pullRequestKey } from "../follow-up-rules.js";
import { actorColumns, jsonOrNull, RUN_COLUMNS_BARE, type RunRow } from "../rows.js";
import { runNotFound } from "../run-rules.js";
import type { TransitionRequest } from "../store.js";
import type { BatchedMove } from "./transition-batch.js";

/**
 * A transition in one statement. `cur` locks the run's row; when another transaction moved it meanwhile, the lock
 * waits for its commit and both `cur` and the UPDATE then read the row as that commit left it (READ COMMITTED's
 * re-check), so the state check and the new row's number (`last_transition` + 1, schema version 10) count every
 * transition committed before the lock was granted. The rows' `MAX(seq)` (read before any wait) counts too: it numbers
 * a run stored before version 10 (NULL), and one an older errand moved during a rolling upgrade, which writes rows
 * without the number; at worst such a race fails one attempt with a duplicate number, and the next reads it.
 * Parameters: id, from states, to state, time, reason, starts?, ends?, backend, result, cost, log ref, attachment,
 * actor kind, name and origin, pull request URL. `lock` is how `cur` locks: waiting for the row, or passing over a
 * row another transaction holds (no row then).
 */
const moveStatement = (lock: "FOR UPDATE" | "FOR UPDATE SKIP LOCKED") => `
  WITH cur AS (
    SELECT id AS cur_id, state AS cur_state, cancel_actor_kind AS cur_kind, cancel_actor_name AS cur_name,
      cancel_actor_from AS cur_from
    FROM task_runs WHERE id = $1 ${lock}
  ), moved AS (
    UPDATE task_runs SET state = $3::text, updated_at = $4::bigint, reason = $5::text,
      started_at = CASE WHEN $6::boolean THEN $4::bigint ELSE started_at END,
      finished_at = CASE WHEN $7::boolean THEN $4::bigint ELSE finished_at END,
      claimed_by = NULL, claim_expires_at = NULL,
      backend = COALESCE($8::text, backend), result = COALESCE($9::text, result),
      cost_usd = COALESCE($10::double precision, cost_usd), log_ref = COALESCE($11::text, log_ref),
      attachment = COALESCE($12::text, attachment), pull_request_url = COALESCE($16::text, pull_request_url),
      announce_pending = announce_pending OR (cur_state = 'AwaitingApproval' AND $7::boolean),
      last_transition = GREATEST(last_transition, (SELECT COALESCE(MAX(seq), 0) FROM transitions WHERE run_id = $1)) + 1
    FROM cur WHERE id = cur_id AND cur_state = ANY ($2::text[])
    RETURNING ${RUN_COLUMNS_BARE}, last_transition, cur_state, cur_kind, cur_name, cur_from
  ), history AS (
    -- A cancel the loop carries out (no actor given) is by whoever asked for it.
    INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason, actor_kind, actor_name, actor_from)
    SELECT id, last_transition, cur_state, $3::text, $4::bigint, $5::text,
      CASE WHEN $13::text IS NULL AND $3::text = 'Cancelled' THEN cur_kind ELSE $13::text END,
      CASE WHEN $13::text IS NULL AND $3::text = 'Cancelled' THEN cur_name ELSE $14::text END,
      CASE WHEN $13::text IS NULL AND $3::text = 'Cancelled' THEN cur_from ELSE $15::text END
    FROM moved
  )
  SELECT ${RUN_COLUMNS_BARE} FROM moved`;
const MOVE = moveStatement("FOR UPDATE");
const MOVE_UNLESS_LOCKED = moveStatement("FOR UPDATE SKIP LOCKED");
/** Whether run `runId` is stored: what tells an unknown run from one a conditional update left alone. */
export async function runExists(queryable: Pool | PoolClient, runId: string): Promise<boolean> {
  return ((await queryable.query("SELECT 1 FROM task_runs WHERE id = $1", [runId])).rowCount ?? 0) > 0;
}

/** The values of one move, named as the batch statement reads them (the single statement takes them in this order). */
export function moveValues(req: Omit<TransitionRequest, "from">, from: readonly RunState[], at: number): BatchedMove {
  const patch = req.patch ?? {};
  const [kind, name, origin] = actorColumns(req.actor);
  return {
    b_id: req.runId,
    b_from: from,
    b_to: req.to,
    b_at: at,
    b_reason: req.reason,
    b_starts: req.to === "Running",
    b_ends: isTerminal(req.to),
    b_backend: patch.backend ?? null,
    b_result: jsonOrNull(patch.result),
    b_cost: patch.costUsd ?? null,
    b_log_ref: patch.logRef ?? null,
    b_attachment: jsonOrNull(patch.attachment),
    b_actor_kind: kind,
    b_actor_name: name,
    b_actor_from: origin,
    b_pull_request_url: pullRequestKey(patch.result?.pullRequestUrl) || null,
  };
}

/**
 * Moves run `move.b_id` from one of its `from` states, with its transition row, and records the pull request URL
 * of its result; undefined when its state is none of them. `queryable` is the pool (a statement of its own) or the
 * client of a transaction that holds the run's lock already.
 */
export async function moveAlone(queryable: Pool | PoolClient, move: BatchedMove): Promise<RunRow | undefined> {
  const values = statementValues(move);
  const moved = (await queryable.query<RunRow>({ name: "errand.move_run", text: MOVE, values })).rows[0];
  // No row: the run is in none of the `from` states, or there is no such run (the rare case, told apart here).
  if (moved === undefined && !(await runExists(queryable, move.b_id))) throw runNotFound(move.b_id);
  return moved;
}

/**
 * The move of {@link moveAlone} unless another transaction holds the run's row: then, as when the run is in none of
 * the `from` states or unknown, no row and nothing moved (the caller makes the move again with {@link moveAlone},
 * which waits for the row and tells the cases apart). Never waits for a row lock.
 */
export async function moveUnlessLocked(pool: Pool, move: BatchedMove): Promise<RunRow | undefined> {
  const values = statementValues(move);
  return (await pool.query<RunRow>({ name: "errand.move_run_unless_locked", text: MOVE_UNLESS_LOCKED, values }))
    .rows[0];
}

function statementValues(move: BatchedMove): unknown[] {
  const { b_id, b_from, b_to, b_at, b_reason, b_starts, b_ends, b_backend, b_result, b_cost } = move;
  const { b_log_ref, b_attachment, b_actor_kind, b_actor_name, b_actor_from, b_pull_request_url } = move;
  const values: unknown[] = [b_id, b_from, b_to, b_at, b_reason, b_starts, b_ends, b_backend, b_result, b_cost];
  values.push(b_log_ref, b_attachment, b_actor_kind, b_actor_name, b_actor_from, b_pull_request_url);
  return values;
}
