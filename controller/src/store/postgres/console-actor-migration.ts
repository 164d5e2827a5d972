/**
 * Schema version 7 (SQLite: 8, the same columns): who asked to cancel a run (the loop makes a Running run's Cancelled transition later, and names
 * them in it), and when a run awaiting approval was announced (once per run, across restarts and processes).
 */
export const CANCEL_ACTOR_AND_ANNOUNCED_STEP = {
  version: 7,
  name: "who asked to cancel a run, and the announcement of a run awaiting approval",
  sql: `
    -- The first cancel request's actor, as the transitions' actor columns store one; NULL: the controller, or no request.
    ALTER TABLE task_runs ADD COLUMN cancel_actor_kind TEXT;
    ALTER TABLE task_runs ADD COLUMN cancel_actor_name TEXT;
    ALTER TABLE task_runs ADD COLUMN cancel_actor_from TEXT;
    -- Set by the one process that announced the wait. Runs already waiting were announced by the errand that
    -- created them: an upgrade announces nothing from the past.
    ALTER TABLE task_runs ADD COLUMN approval_announced_at BIGINT;
    UPDATE task_runs SET approval_announced_at = updated_at WHERE state = 'AwaitingApproval';
  `,
};
