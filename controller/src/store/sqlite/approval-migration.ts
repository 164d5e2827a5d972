// Every state of version 4, written out: this step never changes, whatever RUN_STATES becomes later.
const STATES = "'Queued', 'Running', 'Succeeded', 'Failed', 'TimedOut', 'Cancelled', 'Refused', 'AwaitingApproval'";

/**
 * Schema version 4: the AwaitingApproval state, and who caused each
 * transition. SQLite cannot alter a CHECK constraint, so task_runs and
 * transitions are rebuilt with the new list and their rows copied, inside
 * the migration's transaction (a failure leaves the old tables whole).
 * The copies are created first, transitions' copy referencing task_runs'
 * copy, so no DROP deletes a row another table still points at; renaming
 * task_runs' copy renames that reference with it.
 */
export const APPROVAL_STEP = {
  version: 4,
  name: "runs awaiting approval, and who caused each transition",
  sql: `
    CREATE TABLE task_runs_v4 (
      id TEXT PRIMARY KEY,
      source TEXT NOT NULL,
      ticket_id TEXT NOT NULL,
      attempt INTEGER NOT NULL CHECK (attempt >= 1),
      state TEXT NOT NULL CHECK (state IN (${STATES})),
      engine TEXT NOT NULL,
      backend TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      started_at INTEGER,
      finished_at INTEGER,
      reason TEXT NOT NULL,
      result TEXT,
      cost_usd REAL,
      log_ref TEXT,
      attachment TEXT,
      cancel_requested_at INTEGER,
      claimed_by TEXT,
      claim_expires_at INTEGER,
      announce_pending INTEGER NOT NULL DEFAULT 0 CHECK (announce_pending IN (0, 1)),
      UNIQUE (source, ticket_id, attempt),
      FOREIGN KEY (source, ticket_id) REFERENCES tickets (source, id)
    );
    CREATE TABLE transitions_v4 (
      run_id TEXT NOT NULL REFERENCES task_runs_v4 (id),
      seq INTEGER NOT NULL,
      from_state TEXT CHECK (from_state IN (${STATES})),
      to_state TEXT NOT NULL CHECK (to_state IN (${STATES})),
      at INTEGER NOT NULL,
      reason TEXT NOT NULL,
      actor_kind TEXT,
      actor_name TEXT,
      actor_from TEXT,
      PRIMARY KEY (run_id, seq)
    ) WITHOUT ROWID;
    INSERT INTO task_runs_v4 (id, source, ticket_id, attempt, state, engine, backend, created_at, updated_at,
        started_at, finished_at, reason, result, cost_usd, log_ref, attachment, cancel_requested_at, claimed_by,
        claim_expires_at, announce_pending)
      SELECT id, source, ticket_id, attempt, state, engine, backend, created_at, updated_at, started_at, finished_at,
        reason, result, cost_usd, log_ref, attachment, cancel_requested_at, claimed_by, claim_expires_at,
        announce_pending
      FROM task_runs;
    INSERT INTO transitions_v4 (run_id, seq, from_state, to_state, at, reason)
      SELECT run_id, seq, from_state, to_state, at, reason FROM transitions;
    DROP TABLE transitions;
    DROP TABLE task_runs;
    ALTER TABLE task_runs_v4 RENAME TO task_runs;
    ALTER TABLE transitions_v4 RENAME TO transitions;
    CREATE INDEX task_runs_by_state ON task_runs (state, created_at, id);
    CREATE INDEX task_runs_by_creation ON task_runs (created_at, id);
    CREATE INDEX task_runs_unannounced ON task_runs (finished_at, id) WHERE announce_pending = 1;
  `,
} as const;
