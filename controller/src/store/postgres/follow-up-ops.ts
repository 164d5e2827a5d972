import type { PoolClient } from "pg";
import type { TaskRun } from "../../runs/task-run.js";
import { type AttemptRow, checkFollowUpRequest, nextFollowUpAttempt, pullRequestKey } from "../follow-up-rules.js";
import { requireText } from "../input-checks.js";
import { RUN_COLUMNS_BARE, type RunRow, toTaskRun, toTicket } from "../rows.js";
import { newRunId } from "../run-id.js";
import { runNotFound } from "../run-rules.js";
import type { FollowUpRequest } from "../store.js";
import { inTransaction } from "./in-transaction.js";
import { lockTicketRepo } from "./lock-ticket.js";
import type { PostgresContext, StoreOps } from "./postgres-context.js";

// $10: the repository of the ticket as stored now; NULL leaves it to the trigger.
const NEW_FOLLOW_UP = `
  WITH run AS (
    INSERT INTO task_runs (id, source, ticket_id, attempt, state, engine, created_at, updated_at, reason, parent_run_id, follow_up, repo_url)
    VALUES ($1, $2, $3, $4, 'Queued', $5, $6::bigint, $6::bigint, $7::text, $8, $9, $10::text) RETURNING ${RUN_COLUMNS_BARE}
  ), history AS (
    INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason) SELECT id, 1, NULL, 'Queued', $6::bigint, $7::text FROM run
  )
  SELECT * FROM run`;
const OPENED_BY = `SELECT ${RUN_COLUMNS_BARE} FROM task_runs WHERE pull_request_url = $1 ORDER BY created_at, id LIMIT 1`;
const NEWEST = `SELECT ${RUN_COLUMNS_BARE} FROM task_runs WHERE source = $1 AND ticket_id = $2 ORDER BY attempt DESC LIMIT 1`;

/**
 * Follow-up runs on PostgreSQL. Creating one locks the ticket's row, as
 * retry and intake do, so two review events racing on one ticket are
 * serialized and the second sees the first's run; the partial unique index
 * on active runs backs it up.
 */
export function createFollowUpOps({
  pool,
  now,
}: PostgresContext): StoreOps<"createFollowUp" | "findPullRequestRun" | "recordSession"> {
  return {
    async createFollowUp(req) {
      requireText(req?.parentRunId, "parent run id");
      requireText(req.reason, "reason of the follow-up");
      checkFollowUpRequest(req);
      const at = now();
      return inTransaction(pool, (client) => createFollowUp(client, req, at));
    },
    async findPullRequestRun(pullRequestUrl) {
      const opened = (
        await pool.query<RunRow>(OPENED_BY, [pullRequestKey(requireText(pullRequestUrl, "pull request url"))])
      ).rows[0];
      if (!opened) return undefined;
      const key = [opened.source, opened.ticket_id];
      const latest = (await pool.query<RunRow>(NEWEST, key)).rows[0] as RunRow;
      const ticket = (
        await pool.query<{ payload: string }>("SELECT payload FROM tickets WHERE source = $1 AND id = $2", key)
      ).rows[0] as { payload: string };
      return { opened: toTaskRun(opened), latest: toTaskRun(latest), ticket: toTicket(ticket.payload) };
    },
    async recordSession(runId, sessionId) {
      const params = [requireText(sessionId, "session id"), requireText(runId, "run id")];
      const changed = await pool.query("UPDATE task_runs SET session_id = $1 WHERE id = $2", params);
      if (changed.rowCount === 0) throw runNotFound(runId);
    },
  };
}

/** The follow-up, under the ticket's lock: the attempts read after it are as the last writer committed them. */
async function createFollowUp(client: PoolClient, req: FollowUpRequest, at: number): Promise<TaskRun> {
  const parent = (
    await client.query<RunRow>(`SELECT ${RUN_COLUMNS_BARE} FROM task_runs WHERE id = $1`, [req.parentRunId])
  ).rows[0];
  if (!parent) throw runNotFound(req.parentRunId);
  const repo = await lockTicketRepo(client, parent.source, parent.ticket_id);
  const attempts = (
    await client.query<AttemptRow>(
      "SELECT id, state, attempt, follow_up FROM task_runs WHERE source = $1 AND ticket_id = $2 ORDER BY attempt DESC",
      [parent.source, parent.ticket_id],
    )
  ).rows;
  // An unfinished parent is an active run of the ticket: the rules refuse it as such.
  const attempt = nextFollowUpAttempt(req, attempts);
  const params: unknown[] = [newRunId(at), parent.source, parent.ticket_id, attempt, parent.engine, at, req.reason];
  params.push(parent.id, JSON.stringify(req.followUp), repo);
  return toTaskRun((await client.query<RunRow>(NEW_FOLLOW_UP, params)).rows[0] as RunRow);
}
