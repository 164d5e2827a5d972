import type { Pool, PoolClient } from "pg";
import { isTerminal, type RunState } from "../../runs/task-run.js";
import { pullRequestKey } from "../follow-up-rules.js";
import { actorColumns, jsonOrNull, type RunRow } from "../rows.js";
import { runNotFound } from "../run-rules.js";
import type { TransitionRequest } from "../store.js";
import { type MoveTerms, moveStatement } from "./move-statement.js";
import type { BatchedMove } from "./transition-batch.js";

/** The single move's parameters: id, from states, then the values in {@link statementValues}' order. */
const PARAMETERS: MoveTerms = {
  to: "$3::text",
  at: "$4::bigint",
  reason: "$5::text",
  starts: "$6::boolean",
  ends: "$7::boolean",
  backend: "$8::text",
  result: "$9::text",
  cost: "$10::double precision",
  logRef: "$11::text",
  attachment: "$12::text",
  actorKind: "$13::text",
  actorName: "$14::text",
  actorFrom: "$15::text",
  pullRequestUrl: "$16::text",
};

/** One run's move; `lock` is how `cur` locks: waiting for the row, or passing over a row another transaction holds. */
const moveOne = (lock: "FOR UPDATE" | "FOR UPDATE SKIP LOCKED") =>
  moveStatement(
    {
      before: "",
      locked: `task_runs t WHERE t.id = $1 ${lock}`,
      joined: "cur",
      matched: "id = cur_id AND cur_state = ANY ($2::text[])",
      carried: "",
    },
    PARAMETERS,
  );
const MOVE = moveOne("FOR UPDATE");
const MOVE_UNLESS_LOCKED = moveOne("FOR UPDATE SKIP LOCKED");

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
