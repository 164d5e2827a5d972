/**
 * Schema version 9 (SQLite has no counterpart: its store runs in-process): a run's transition as one function call,
 * so a transition is one round trip instead of five (BEGIN, lock, move, pull request, COMMIT). Each statement in the
 * function takes its snapshot after the one before it, so the transition row's `MAX(seq) + 1` reads every transition
 * committed before the row lock was granted, as the separate statements did. Version 10 replaced it with one
 * statement (transition-number-migration.ts).
 */
export const MOVE_RUN_STEP = {
  version: 9,
  name: "a run's transition in one call",
  sql: `
    -- Moves run p_id to p_to when its state is one of p_from, with its transition row; no rows when it is not.
    -- An unknown run raises no_data_found (P0002). The actor is the one given, else, for Cancelled, the one who asked
    -- to cancel. A pull request URL, when given, is recorded on the run (how a review finds it).
    CREATE FUNCTION errand_move_run(
      p_id TEXT, p_from TEXT[], p_to TEXT, p_at BIGINT, p_reason TEXT, p_starts BOOLEAN, p_ends BOOLEAN,
      p_backend TEXT, p_result TEXT, p_cost DOUBLE PRECISION, p_log_ref TEXT, p_attachment TEXT,
      p_actor_kind TEXT, p_actor_name TEXT, p_actor_from TEXT, p_pull_request_url TEXT
    ) RETURNS SETOF task_runs LANGUAGE plpgsql AS $$
    DECLARE
      cur task_runs;
      by_request BOOLEAN;
    BEGIN
      SELECT * INTO cur FROM task_runs WHERE id = p_id FOR UPDATE;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'run % not found', p_id USING ERRCODE = 'no_data_found';
      END IF;
      IF NOT (cur.state = ANY (p_from)) THEN
        RETURN;
      END IF;
      by_request := p_actor_kind IS NULL AND p_to = 'Cancelled';
      RETURN QUERY
        WITH moved AS (
          UPDATE task_runs SET state = p_to, updated_at = p_at, reason = p_reason,
            started_at = CASE WHEN p_starts THEN p_at ELSE started_at END,
            finished_at = CASE WHEN p_ends THEN p_at ELSE finished_at END,
            claimed_by = NULL, claim_expires_at = NULL,
            backend = COALESCE(p_backend, backend), result = COALESCE(p_result, result),
            cost_usd = COALESCE(p_cost, cost_usd), log_ref = COALESCE(p_log_ref, log_ref),
            attachment = COALESCE(p_attachment, attachment),
            pull_request_url = COALESCE(p_pull_request_url, pull_request_url),
            announce_pending = announce_pending OR (cur.state = 'AwaitingApproval' AND p_ends)
          WHERE id = p_id RETURNING *
        ), history AS (
          INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason, actor_kind, actor_name, actor_from)
          SELECT id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM transitions WHERE run_id = p_id), cur.state, p_to, p_at,
            p_reason,
            CASE WHEN by_request THEN cur.cancel_actor_kind ELSE p_actor_kind END,
            CASE WHEN by_request THEN cur.cancel_actor_name ELSE p_actor_name END,
            CASE WHEN by_request THEN cur.cancel_actor_from ELSE p_actor_from END
          FROM moved
        )
        SELECT * FROM moved;
    END $$;
  `,
};
