/**
 * Schema version 10 (SQLite has no counterpart: its store runs in-process): each run keeps the number of its last
 * transition row, so a transition is one statement that reads the number from the row it locks (see run-ops.ts)
 * instead of a PL/pgSQL function whose statements each took a new snapshot to count the rows (version 9, dropped
 * here). Runs stored before have NULL (their next transition counts their rows); runs created after start at 1,
 * their first row (Queued or AwaitingApproval).
 */
export const TRANSITION_NUMBER_STEP = {
  version: 10,
  name: "the number of a run's last transition, kept on the run",
  sql: `
    ALTER TABLE task_runs ADD COLUMN last_transition INTEGER;
    ALTER TABLE task_runs ALTER COLUMN last_transition SET DEFAULT 1;
    DROP FUNCTION errand_move_run(TEXT, TEXT[], TEXT, BIGINT, TEXT, BOOLEAN, BOOLEAN, TEXT, TEXT, DOUBLE PRECISION,
      TEXT, TEXT, TEXT, TEXT, TEXT, TEXT);
  `,
};
