import { RUN_COLUMNS_BARE } from "../rows.js";

/** The SQL a move's values are read from: the single statement's parameters, or the columns of a batch's rows. */
export interface MoveTerms {
  to: string;
  at: string;
  reason: string;
  starts: string;
  ends: string;
  backend: string;
  result: string;
  cost: string;
  logRef: string;
  attachment: string;
  actorKind: string;
  actorName: string;
  actorFrom: string;
  pullRequestUrl: string;
}

/** Where a move statement finds its runs and their values (the parts in which one run and many differ). */
export interface MoveSource {
  /** CTEs before `cur`, each followed by a comma (the batch's rows); empty for one run. */
  before: string;
  /** What `cur` selects from, as `task_runs t ...`, with its lock clause. */
  locked: string;
  /** The UPDATE's FROM list, `cur` in it. */
  joined: string;
  /** The UPDATE's WHERE: the row of `cur`, and its state one of the `from` states. */
  matched: string;
  /** Columns the history row reads from `moved` beyond the run's (the batch's values), each after a comma. */
  carried: string;
}

/**
 * A transition in one statement, for one run or many: `cur` locks the runs' rows and reads their state; when
 * another transaction moved one meanwhile, the lock waits for its commit (unless `locked` skips locked rows) and
 * both `cur` and the UPDATE then read the row as that commit left it (READ COMMITTED's re-check), so the state
 * check and the new row's number (`last_transition` + 1, schema version 10) count every transition committed
 * before the lock was granted. The rows' `MAX(seq)` (read before any wait) counts too: it numbers a run stored
 * before version 10 (NULL), and one an older errand moved during a rolling upgrade, which writes rows without the
 * number; at worst such a race fails one attempt with a duplicate number, and the next reads it. One text for both
 * forms, so that what a move writes cannot differ between them.
 */
export function moveStatement(source: MoveSource, v: MoveTerms): string {
  return `
  WITH ${source.before}cur AS (
    SELECT t.id AS cur_id, t.state AS cur_state, t.cancel_actor_kind AS cur_kind, t.cancel_actor_name AS cur_name,
      t.cancel_actor_from AS cur_from
    FROM ${source.locked}
  ), moved AS (
    UPDATE task_runs SET state = ${v.to}, updated_at = ${v.at}, reason = ${v.reason},
      started_at = CASE WHEN ${v.starts} THEN ${v.at} ELSE started_at END,
      finished_at = CASE WHEN ${v.ends} THEN ${v.at} ELSE finished_at END,
      claimed_by = NULL, claim_expires_at = NULL,
      backend = COALESCE(${v.backend}, backend), result = COALESCE(${v.result}, result),
      cost_usd = COALESCE(${v.cost}, cost_usd), log_ref = COALESCE(${v.logRef}, log_ref),
      attachment = COALESCE(${v.attachment}, attachment),
      pull_request_url = COALESCE(${v.pullRequestUrl}, pull_request_url),
      announce_pending = announce_pending OR (cur_state = 'AwaitingApproval' AND ${v.ends}),
      last_transition = GREATEST(last_transition,
        (SELECT COALESCE(MAX(seq), 0) FROM transitions WHERE run_id = task_runs.id)) + 1
    FROM ${source.joined}
    WHERE ${source.matched}
    RETURNING ${RUN_COLUMNS_BARE}, last_transition, cur_state, cur_kind, cur_name, cur_from${source.carried}
  ), history AS (
    -- A cancel the loop carries out (no actor given) is by whoever asked for it.
    INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason, actor_kind, actor_name, actor_from)
    SELECT id, last_transition, cur_state, ${v.to}, ${v.at}, ${v.reason},
      CASE WHEN ${v.actorKind} IS NULL AND ${v.to} = 'Cancelled' THEN cur_kind ELSE ${v.actorKind} END,
      CASE WHEN ${v.actorKind} IS NULL AND ${v.to} = 'Cancelled' THEN cur_name ELSE ${v.actorName} END,
      CASE WHEN ${v.actorKind} IS NULL AND ${v.to} = 'Cancelled' THEN cur_from ELSE ${v.actorFrom} END
    FROM moved
  )
  SELECT ${RUN_COLUMNS_BARE} FROM moved`;
}
