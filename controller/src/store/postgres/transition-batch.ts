import type { Pool } from "pg";
import type { RunRow } from "../rows.js";
import { moveStatement } from "./move-statement.js";

/** One transition as the batch statement reads it: the parameters of a single move, by name. */
export interface BatchedMove {
  b_id: string;
  b_from: readonly string[];
  b_to: string;
  b_at: number;
  b_reason: string;
  b_starts: boolean;
  b_ends: boolean;
  b_backend: string | null;
  b_result: string | null;
  b_cost: number | null;
  b_log_ref: string | null;
  b_attachment: string | null;
  b_actor_kind: string | null;
  b_actor_name: string | null;
  b_actor_from: string | null;
  b_pull_request_url: string | null;
}

const MOVE_COLUMNS =
  "b_id text, b_from text[], b_to text, b_at bigint, b_reason text, b_starts boolean, b_ends boolean, "
  + "b_backend text, b_result text, b_cost double precision, b_log_ref text, b_attachment text, "
  + "b_actor_kind text, b_actor_name text, b_actor_from text, b_pull_request_url text";

/**
 * The single move's statement (move-statement.ts) for many runs at once: the
 * same lock, check, update and history row per run, each with its own values,
 * read from one JSON array. It never waits for a row lock: a run another
 * transaction holds is passed over (SKIP LOCKED), and missing from the result
 * as a run none of whose `from` states holds is, or an unknown one; the caller
 * makes those moves alone. So the statement cannot be held up by one run, nor
 * take part in a deadlock. The
 * runs' ids come again as an array ($2): the planner takes a set-returning
 * function for 100 rows of unknown values and would read every run to join
 * them, where `id = ANY ($2)` reads each run through the primary key.
 */
const MOVE_MANY = moveStatement(
  {
    before: `req AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS b(${MOVE_COLUMNS})), `,
    locked:
      "task_runs t JOIN req ON req.b_id = t.id WHERE t.id = ANY ($2::text[]) ORDER BY t.id FOR UPDATE OF t SKIP LOCKED",
    joined: "cur JOIN req ON req.b_id = cur.cur_id",
    matched: "id = ANY ($2::text[]) AND id = cur_id AND cur_state = ANY (b_from)",
    carried: ", b_to, b_at, b_reason, b_actor_kind, b_actor_name, b_actor_from",
  },
  {
    to: "b_to",
    at: "b_at",
    reason: "b_reason",
    starts: "b_starts",
    ends: "b_ends",
    backend: "b_backend",
    result: "b_result",
    cost: "b_cost",
    logRef: "b_log_ref",
    attachment: "b_attachment",
    actorKind: "b_actor_kind",
    actorName: "b_actor_name",
    actorFrom: "b_actor_from",
    pullRequestUrl: "b_pull_request_url",
  },
);

/** Moves every run of `moves` (distinct runs) it can in one statement; the rows of the runs it moved, by id. */
export async function moveMany(pool: Pool, moves: readonly BatchedMove[]): Promise<Map<string, RunRow>> {
  const ids = moves.map((m) => m.b_id);
  const { rows } = await pool.query<RunRow>(MOVE_MANY, [JSON.stringify(moves), ids]);
  return new Map(rows.map((row) => [row.id, row]));
}

/** True when JSON carries the move's values unchanged (a cost that is not a finite number would become null). */
export function batchable(move: BatchedMove): boolean {
  return move.b_cost === null || Number.isFinite(move.b_cost);
}
