import type { Database, Statement } from "better-sqlite3";
import type { RunState } from "../../runs/task-run.js";
import { RUN_COLUMNS, RUN_COLUMNS_BARE, type RunRow, TRANSITION_COLUMNS, type TransitionRow } from "../rows.js";
import type { Store } from "../store.js";
import { INSERT_AWAITING_RUN, INSERT_FIRST_AWAITING_HISTORY } from "./approval-statements.js";

/** A run row with its ticket's JSON, as claiming returns it. */
export type RunTicketRow = RunRow & { payload: string };

/** Named parameters of the transition UPDATE. */
export interface TransitionParams {
  id: string;
  from: RunState;
  to: RunState;
  at: number;
  reason: string;
  started: 0 | 1;
  finished: 0 | 1;
  backend: string | null;
  result: string | null;
  cost: number | null;
  logRef: string | null;
  attachment: string | null;
}

/** Named parameters of a transitions INSERT. */
export interface HistoryParams {
  runId: string;
  from: RunState | null;
  to: RunState;
  at: number;
  reason: string;
  actorKind: string | null;
  actorName: string | null;
  actorFrom: string | null;
}

/**
 * The part of a better-sqlite3 statement the store uses. Declared here
 * because the library's own Statement type lives in a namespace that the
 * declarations emitted for this package cannot name.
 */
export interface PreparedStatement<P extends unknown[] | object, R> {
  run(...params: P extends unknown[] ? P : [P]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: P extends unknown[] ? P : [P]): R | undefined;
  all(...params: P extends unknown[] ? P : [P]): R[];
}

/** Prepares one statement, typed by its parameters `P` and its row `R`. */
type Prepare = <P extends unknown[] | object = unknown[], R = unknown>(sql: string) => PreparedStatement<P, R>;

/**
 * Every statement of the hot paths, prepared once at open: preparing is
 * a parse and a plan, which per call would cost more than the write.
 */
export function prepareStatements(db: Database) {
  const prep: Prepare = <P extends unknown[] | object = unknown[], R = unknown>(sql: string) =>
    db.prepare(sql) as unknown as PreparedStatement<P, R>;
  return {
    ...intakeStatements(prep),
    ...deliveryStatements(prep),
    ...runStatements(prep),
    ...readStatements(prep),
    insertAwaitingRun:
      prep<[string, string, string, number, string, number, number, string, string | null]>(INSERT_AWAITING_RUN),
    insertFirstAwaitingHistory: prep<[string, number, string]>(INSERT_FIRST_AWAITING_HISTORY),
  };
}

/** Storing tickets, starting their runs (a first attempt or a retry) and recording every step of a run. */
function intakeStatements(prep: Prepare) {
  const byTicket = "FROM task_runs WHERE source = ? AND ticket_id = ?";
  return {
    latestRun: prep<[string, string], { id: string; state: RunState }>(
      `SELECT id, state ${byTicket} ORDER BY attempt DESC LIMIT 1`,
    ),
    runsOfTicket: prep<[string, string], { id: string; state: RunState; attempt: number }>(
      `SELECT id, state, attempt ${byTicket} ORDER BY attempt DESC`,
    ),
    upsertTicket: prep<[string, string, string, number, number]>(
      `INSERT INTO tickets (source, id, payload, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (source, id) DO UPDATE SET payload = excluded.payload, last_seen_at = excluded.last_seen_at`,
    ),
    // The repository: the ticket's for a first run; null (a retry, a follow-up) leaves it to the trigger.
    insertRun: prep<[string, string, string, number, string, number, number, string, string | null]>(
      `INSERT INTO task_runs (id, source, ticket_id, attempt, state, engine, created_at, updated_at, reason, repo_url)
       VALUES (?, ?, ?, ?, 'Queued', ?, ?, ?, ?, ?)`,
    ),
    // A new run's first transition: its seq is 1, no lookup needed.
    insertFirstHistory: prep<[string, number, string]>(
      "INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason) VALUES (?, 1, NULL, 'Queued', ?, ?)",
    ),
    insertHistory: prep<HistoryParams>(
      `INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason, actor_kind, actor_name, actor_from)
       VALUES (@runId, (SELECT COALESCE(MAX(seq), 0) + 1 FROM transitions WHERE run_id = @runId), @from, @to, @at, @reason,
         @actorKind, @actorName, @actorFrom)`,
    ),
  };
}

/** Webhook delivery ids: claimed, handled, released, and purged once expired. */
function deliveryStatements(prep: Prepare) {
  return {
    getDelivery: prep<[string], { state: "claimed" | "done"; expires_at: number }>(
      "SELECT state, expires_at FROM deliveries WHERE key = ?",
    ),
    putDelivery: prep<[string, "claimed" | "done", number]>(
      `INSERT INTO deliveries (key, state, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET state = excluded.state, expires_at = excluded.expires_at`,
    ),
    // Marks an id handled unless it is held (handled or claimed, not expired): 0 changes then.
    markNewDelivery: prep<[string, number, number]>(
      `INSERT INTO deliveries (key, state, expires_at) VALUES (?, 'done', ?)
       ON CONFLICT (key) DO UPDATE SET state = 'done', expires_at = excluded.expires_at WHERE deliveries.expires_at <= ?`,
    ),
    deleteDelivery: prep<[string]>("DELETE FROM deliveries WHERE key = ?"),
    purgeDeliveries: prep<[number, number]>(
      "DELETE FROM deliveries WHERE key IN (SELECT key FROM deliveries WHERE expires_at <= ? LIMIT ?)",
    ),
  };
}

/** Claiming, moving, cancelling and announcing runs. */
function runStatements(prep: Prepare) {
  return {
    claimable: prep<[number, number], RunTicketRow>(
      `SELECT ${RUN_COLUMNS}, t.payload FROM task_runs r JOIN tickets t ON t.source = r.source AND t.id = r.ticket_id
       WHERE r.state = 'Queued' AND (r.claim_expires_at IS NULL OR r.claim_expires_at <= ?)
       ORDER BY r.created_at, r.id LIMIT ?`,
    ),
    setClaim: prep<[string, number, string]>("UPDATE task_runs SET claimed_by = ?, claim_expires_at = ? WHERE id = ?"),
    releaseClaim: prep<[string, string]>(
      "UPDATE task_runs SET claimed_by = NULL, claim_expires_at = NULL WHERE id = ? AND claimed_by = ? AND state = 'Queued'",
    ),
    releaseAllClaims: prep<[]>(
      "UPDATE task_runs SET claimed_by = NULL, claim_expires_at = NULL WHERE state = 'Queued' AND claimed_by IS NOT NULL",
    ),
    getRun: prep<[string], RunRow>(`SELECT ${RUN_COLUMNS} FROM task_runs r WHERE r.id = ?`),
    applyTransition: prep<TransitionParams, RunRow>(
      `UPDATE task_runs SET state = @to, updated_at = @at, reason = @reason,
         started_at = CASE WHEN @started THEN @at ELSE started_at END,
         finished_at = CASE WHEN @finished THEN @at ELSE finished_at END,
         claimed_by = NULL, claim_expires_at = NULL,
         backend = COALESCE(@backend, backend), result = COALESCE(@result, result), cost_usd = COALESCE(@cost, cost_usd),
         log_ref = COALESCE(@logRef, log_ref), attachment = COALESCE(@attachment, attachment),
         announce_pending = CASE WHEN @from = 'AwaitingApproval' AND @finished THEN 1 ELSE announce_pending END
       WHERE id = @id AND state = @from
       RETURNING ${RUN_COLUMNS_BARE}`,
    ),
    updateRunning: prep<{
      id: string;
      at: number;
      cost: number | null;
      logRef: string | null;
      attachment: string | null;
      branch: string | null;
    }>(
      `UPDATE task_runs SET updated_at = @at, cost_usd = COALESCE(@cost, cost_usd),
         log_ref = COALESCE(@logRef, log_ref), attachment = COALESCE(@attachment, attachment),
         branch = COALESCE(@branch, branch)
       WHERE id = @id AND state = 'Running'`,
    ),
    // A Queued (or AwaitingApproval) run is Cancelled in the same transaction, by no loop: it is marked for the loop to
    // announce. A Running run keeps the first request's reason (who asked, from where) for the loop's Cancelled transition.
    // The first request's actor too (every SET reads the row as it was before the UPDATE).
    requestCancel: prep<{
      id: string;
      at: number;
      reason: string;
      actorKind: string | null;
      actorName: string | null;
      actorFrom: string | null;
    }>(
      `UPDATE task_runs SET reason = CASE WHEN state = 'Running' AND cancel_requested_at IS NULL THEN @reason ELSE reason END,
         cancel_actor_kind = CASE WHEN cancel_requested_at IS NULL THEN @actorKind ELSE cancel_actor_kind END,
         cancel_actor_name = CASE WHEN cancel_requested_at IS NULL THEN @actorName ELSE cancel_actor_name END,
         cancel_actor_from = CASE WHEN cancel_requested_at IS NULL THEN @actorFrom ELSE cancel_actor_from END,
         cancel_requested_at = COALESCE(cancel_requested_at, @at),
         announce_pending = CASE WHEN state IN ('Queued', 'AwaitingApproval') THEN 1 ELSE announce_pending END
       WHERE id = @id AND state IN ('Queued', 'Running', 'AwaitingApproval')`,
    ),
    unannounced: prep<[number], RunTicketRow>(
      `SELECT ${RUN_COLUMNS}, t.payload FROM task_runs r JOIN tickets t ON t.source = r.source AND t.id = r.ticket_id
       WHERE r.announce_pending = 1 ORDER BY r.finished_at, r.id LIMIT ?`,
    ),
    clearAnnouncement: prep<[string]>("UPDATE task_runs SET announce_pending = 0 WHERE id = ?"),
    // Store.claimApprovalAnnouncement: the one UPDATE that finds the mark unset announces the wait.
    claimApprovalAnnouncement: prep<[number, string]>(
      `UPDATE task_runs SET approval_announced_at = ?
       WHERE id = ? AND state = 'AwaitingApproval' AND approval_announced_at IS NULL`,
    ),
    // How a review event on a pull request finds its ticket (Store.findPullRequestRun).
    setPullRequestUrl: prep<[string, string]>("UPDATE task_runs SET pull_request_url = ? WHERE id = ?"),
    // A follow-up's link and context (Store.createFollowUp, and retry of a follow-up).
    setFollowUp: prep<[string, string, string]>("UPDATE task_runs SET parent_run_id = ?, follow_up = ? WHERE id = ?"),
  };
}

/** The reads of tickets, histories, counts and the runs waiting to be stopped. */
function readStatements(prep: Prepare) {
  return {
    getTicket: prep<[string, string], { payload: string }>("SELECT payload FROM tickets WHERE source = ? AND id = ?"),
    history: prep<[string], TransitionRow>(
      `SELECT ${TRANSITION_COLUMNS} FROM transitions WHERE run_id = ? ORDER BY seq`,
    ),
    countRuns: prep<[], { state: RunState; n: number }>("SELECT state, COUNT(*) AS n FROM task_runs GROUP BY state"),
    cancelRequested: prep<[], RunRow>(
      `SELECT ${RUN_COLUMNS} FROM task_runs r WHERE r.state = 'Running' AND r.cancel_requested_at IS NOT NULL ORDER BY r.created_at, r.id`,
    ),
  };
}

/** The prepared statements of one connection. */
export type Statements = ReturnType<typeof prepareStatements>;

/** What every group of operations works with. */
export interface SqliteContext {
  db: Database;
  st: Statements;
  now: () => number;
}

/** A statement built for one shape of a dynamic query (listRuns), cached by that shape. */
export type StatementCache = Map<string, Statement<unknown[], RunRow>>;

/** The synchronous form of some Store methods: same arguments, the resolved value returned (the store wraps them). */
export type SyncOps<K extends keyof Store> = {
  [M in K]: Store[M] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never;
};
