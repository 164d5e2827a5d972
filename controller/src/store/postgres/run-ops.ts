import type { PoolClient } from "pg";
import { type Actor, isTerminal, type RunState, type TaskRun } from "../../runs/task-run.js";
import { requireText, requireTime } from "../input-checks.js";
import { actorColumns, jsonOrNull, RUN_COLUMNS_BARE, type RunRow, toTaskRun } from "../rows.js";
import { newRunId } from "../run-id.js";
import { cancelFinished, cancelledBeforeStart, retryUnfinished, retryWhileActive, runNotFound } from "../run-rules.js";
import type { TransitionRequest } from "../store.js";
import { checkTransitionRequest } from "../transition-rules.js";
import { inTransaction } from "./in-transaction.js";
import { lockTicketRepo } from "./lock-ticket.js";
import { moveAlone, moveValues, runExists } from "./move-run.js";
import type { PostgresContext, StoreOps } from "./postgres-context.js";
import { createTransitionQueue } from "./transition-queue.js";

const LOCK_RUN = `SELECT ${RUN_COLUMNS_BARE} FROM task_runs WHERE id = $1 FOR UPDATE`;
/**
 * The record of the engine, like a transition made alone (move-run.ts), is a named prepared statement: parsed and
 * planned once per connection, its plan independent of its values (a run's id). The batch statements stay unnamed:
 * a generic plan of `unnest($1)` or `LIMIT $2` guesses the batch's size, and can turn an index lookup into a scan
 * of every run.
 */
const PREPARED = { updateRunning: "errand.update_running" } as const;
// $11: the repository of the ticket as stored now (the one the attempt works on); NULL leaves it to the trigger.
const NEW_ATTEMPT = `
  WITH run AS (
    INSERT INTO task_runs (id, source, ticket_id, attempt, state, engine, created_at, updated_at, reason, repo_url)
    VALUES ($1, $2, $3, $4, 'Queued', $5, $6::bigint, $6::bigint, $7::text, $11::text) RETURNING ${RUN_COLUMNS_BARE}
  ), history AS (
    INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason, actor_kind, actor_name, actor_from)
    SELECT id, 1, NULL, 'Queued', $6::bigint, $7::text, $8::text, $9::text, $10::text FROM run
  )
  SELECT * FROM run`;
const UPDATE_RUNNING = `
  UPDATE task_runs SET updated_at = $2, cost_usd = COALESCE($3::double precision, cost_usd),
    log_ref = COALESCE($4::text, log_ref), attachment = COALESCE($5::text, attachment),
    branch = COALESCE($6::text, branch)
  WHERE id = $1 AND state = 'Running'`;

async function lockRun(client: PoolClient, runId: string): Promise<RunRow> {
  const row = (await client.query<RunRow>(LOCK_RUN, [runId])).rows[0];
  if (!row) throw runNotFound(runId);
  return row;
}

/** {@link moveAlone} of the request, in a transaction's client. */
function move(
  client: PoolClient,
  req: Omit<TransitionRequest, "from">,
  from: readonly RunState[],
  at: number,
): Promise<RunRow | undefined> {
  return moveAlone(client, moveValues(req, from, at));
}

/**
 * Moving TaskRuns on PostgreSQL. Every read-then-write locks the run's row
 * first (SELECT ... FOR UPDATE; a transition in the statement that moves it), so
 * of two controllers moving one run the second reads the state the first
 * committed; retry locks the ticket's row,
 * which intake locks too, so a ticket never has two active attempts.
 */
export function createRunOps({
  pool,
  now,
}: PostgresContext): StoreOps<"transition" | "updateRunning" | "retry" | "requestCancel"> {
  const queue = createTransitionQueue(pool);
  return {
    async transition(req) {
      checkTransitionRequest(req);
      const runId = requireText(req.runId, "run id");
      requireText(req.reason, `reason of the transition of run ${req.runId}`);
      const at = req.at === undefined ? now() : requireTime(req.at, `time of the transition of run ${req.runId}`);
      const values = moveValues({ ...req, runId }, req.from, at);
      const moved = await queue(values);
      return moved && toTaskRun(moved);
    },
    async updateRunning(runId, patch) {
      requireText(runId, "run id");
      const params = [
        runId,
        now(),
        patch.costUsd ?? null,
        patch.logRef ?? null,
        jsonOrNull(patch.attachment),
        patch.branch ?? null,
      ];
      const changed = await pool.query({ name: PREPARED.updateRunning, text: UPDATE_RUNNING, values: params });
      // A run that ended meanwhile keeps its final values; only an unknown id is an error.
      if (changed.rowCount === 0 && !(await runExists(pool, runId))) throw runNotFound(runId);
    },
    async retry(runId, reason, actor) {
      requireText(runId, "run id");
      requireText(reason, "reason of the retry");
      const at = now();
      return inTransaction(pool, (client) => retryRun(client, { runId, reason, at, actor }));
    },
    async requestCancel(runId, reason, actor) {
      requireText(runId, "run id");
      requireText(reason, "reason of the cancel");
      const at = now();
      return inTransaction(pool, (client) => cancelRun(client, { runId, reason, at, actor }));
    },
  };
}

/** What retry and cancel were asked, by whom and when. */
interface RunRequest {
  runId: string;
  reason: string;
  at: number;
  actor: Actor | undefined;
}

/** A new Queued attempt of an ended run's ticket, under the ticket's lock; refused while any attempt is unfinished. */
async function retryRun(client: PoolClient, { runId, reason, at, actor }: RunRequest): Promise<TaskRun> {
  const first = (await client.query<RunRow>(`SELECT ${RUN_COLUMNS_BARE} FROM task_runs WHERE id = $1`, [runId]))
    .rows[0];
  if (!first) throw runNotFound(runId);
  const repo = await lockTicketRepo(client, first.source, first.ticket_id);
  // Read after the lock: the states as the last writer of this ticket committed them.
  const attempts = (
    await client.query<{ id: string; state: RunState; attempt: number }>(
      "SELECT id, state, attempt FROM task_runs WHERE source = $1 AND ticket_id = $2 ORDER BY attempt DESC",
      [first.source, first.ticket_id],
    )
  ).rows;
  const self = attempts.find((a) => a.id === runId) ?? first;
  if (!isTerminal(self.state)) throw retryUnfinished(self);
  const active = attempts.find((a) => !isTerminal(a.state));
  if (active) throw retryWhileActive(runId, active);
  const params = [
    newRunId(at),
    first.source,
    first.ticket_id,
    (attempts[0]?.attempt ?? 0) + 1,
    first.engine,
    at,
    reason,
    ...actorColumns(actor),
    repo,
  ];
  const created = (await client.query<RunRow>(NEW_ATTEMPT, params)).rows[0] as RunRow;
  if (first.follow_up === null) return toTaskRun(created);
  // A retried follow-up stays one: same review, same branch, following the run it retries.
  const linked = await client.query<RunRow>(
    `UPDATE task_runs SET parent_run_id = $2, follow_up = $3 WHERE id = $1 RETURNING ${RUN_COLUMNS_BARE}`,
    [created.id, first.id, first.follow_up],
  );
  return toTaskRun(linked.rows[0] as RunRow);
}

/** Locks the run and marks it for cancelling; a Queued or AwaitingApproval run is Cancelled at once (no engine to stop). */
async function cancelRun(client: PoolClient, { runId, reason, at, actor }: RunRequest): Promise<TaskRun> {
  const row = await lockRun(client, runId);
  if (isTerminal(row.state)) throw cancelFinished(row);
  // A run that never started is Cancelled below, by no loop: it is marked for the loop to announce. A Running run
  // keeps the first request's reason (who asked, from where) for the loop's Cancelled transition.
  // The first request's actor is kept too (every SET reads the row as it was before the UPDATE).
  const marked = await client.query<RunRow>(
    `UPDATE task_runs SET reason = CASE WHEN state = 'Running' AND cancel_requested_at IS NULL THEN $3 ELSE reason END,
       cancel_actor_kind = CASE WHEN cancel_requested_at IS NULL THEN $4::text ELSE cancel_actor_kind END,
       cancel_actor_name = CASE WHEN cancel_requested_at IS NULL THEN $5::text ELSE cancel_actor_name END,
       cancel_actor_from = CASE WHEN cancel_requested_at IS NULL THEN $6::text ELSE cancel_actor_from END,
       cancel_requested_at = COALESCE(cancel_requested_at, $2),
       announce_pending = announce_pending OR state IN ('Queued', 'AwaitingApproval')
     WHERE id = $1 RETURNING ${RUN_COLUMNS_BARE}`,
    [runId, at, reason, ...actorColumns(actor)],
  );
  if (row.state !== "Queued" && row.state !== "AwaitingApproval") return toTaskRun(marked.rows[0] as RunRow);
  const req = { runId, to: "Cancelled" as const, reason, patch: { result: cancelledBeforeStart(reason) } };
  return toTaskRun((await move(client, actor === undefined ? req : { ...req, actor }, [row.state], at)) as RunRow);
}
