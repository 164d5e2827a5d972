import type { Database } from "better-sqlite3";
import { StoreError } from "../../errors.js";
import { APPROVAL_MESSAGE_STEP } from "./approval-message-migration.js";
import { APPROVAL_STEP } from "./approval-migration.js";
import { CANCEL_ACTOR_AND_ANNOUNCED_STEP } from "./console-actor-migration.js";
import { REPO_URL_STEP } from "./repo-url-migration.js";

/** One step of the schema. Released steps never change: add a new one instead. */
interface Migration {
  version: number;
  name: string;
  sql: string;
}

// The states as version 1 released them: a released step never changes (step 4 added AwaitingApproval).
const STATES = ["Queued", "Running", "Succeeded", "Failed", "TimedOut", "Cancelled", "Refused"]
  .map((s) => `'${s}'`)
  .join(", ");

/** The schema, in order. Version numbers are 1, 2, 3, ... without gaps. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "tickets, deliveries, task runs and transitions",
    sql: `
      -- tickets keeps its rowid: payloads of a few kB sit badly in a WITHOUT ROWID b-tree.
      CREATE TABLE tickets (
        source TEXT NOT NULL,
        id TEXT NOT NULL,
        payload TEXT NOT NULL,
        first_seen_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        PRIMARY KEY (source, id)
      );

      CREATE TABLE deliveries (
        key TEXT PRIMARY KEY,
        state TEXT NOT NULL CHECK (state IN ('claimed', 'done')),
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX deliveries_expiry ON deliveries (expires_at);

      CREATE TABLE task_runs (
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
        UNIQUE (source, ticket_id, attempt),
        FOREIGN KEY (source, ticket_id) REFERENCES tickets (source, id)
      );
      CREATE INDEX task_runs_by_state ON task_runs (state, created_at, id);
      CREATE INDEX task_runs_by_creation ON task_runs (created_at, id);

      CREATE TABLE transitions (
        run_id TEXT NOT NULL REFERENCES task_runs (id),
        seq INTEGER NOT NULL,
        from_state TEXT CHECK (from_state IN (${STATES})),
        to_state TEXT NOT NULL CHECK (to_state IN (${STATES})),
        at INTEGER NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: "the lease of the loop's leader",
    sql: `
      -- One row at most: who runs the reconciliation loop, until when.
      CREATE TABLE leader (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        owner TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: "ends of runs the observers were not told about yet",
    sql: `
      -- 1 from the cancel of a Queued run (no loop ended it) until a loop takes it to tell the observers.
      -- Rows written before this step stay 0: an upgrade announces nothing from the past.
      ALTER TABLE task_runs ADD COLUMN announce_pending INTEGER NOT NULL DEFAULT 0 CHECK (announce_pending IN (0, 1));
      CREATE INDEX task_runs_unannounced ON task_runs (finished_at, id) WHERE announce_pending = 1;
    `,
  },
  APPROVAL_STEP,
  {
    version: 5,
    name: "the branch a run works on",
    sql: `
      -- Set when the controller prepared a checkout (repositories.codehost_a); NULL for every run before.
      ALTER TABLE task_runs ADD COLUMN branch TEXT;
    `,
  },
  {
    version: 6,
    name: "runs listed by source and by repository",
    sql: `
      -- The ticket's repository, copied onto its runs so the console pages through one repository's runs on an index.
      -- A trigger fills it, so the statements that create runs stay as they are; a payload that is not JSON gives NULL.
      ALTER TABLE task_runs ADD COLUMN repo_url TEXT;
      UPDATE task_runs SET repo_url = (
        SELECT CASE WHEN json_valid(t.payload) THEN json_extract(t.payload, '$.repoUrl') END
        FROM tickets t WHERE t.source = task_runs.source AND t.id = task_runs.ticket_id
      );
      CREATE TRIGGER task_runs_repo_url AFTER INSERT ON task_runs BEGIN
        UPDATE task_runs SET repo_url = (
          SELECT CASE WHEN json_valid(t.payload) THEN json_extract(t.payload, '$.repoUrl') END
          FROM tickets t WHERE t.source = NEW.source AND t.id = NEW.ticket_id
        ) WHERE id = NEW.id;
      END;
      CREATE INDEX task_runs_by_source ON task_runs (source, created_at, id);
      CREATE INDEX task_runs_by_repo ON task_runs (repo_url, created_at, id);
    `,
  },
  {
    version: 7,
    name: "follow-up runs: parent, engine session, review context, pull request opened",
    sql: `
      -- A follow-up is a new attempt of the same ticket: one active run per ticket is one per pull request.
      ALTER TABLE task_runs ADD COLUMN parent_run_id TEXT;
      ALTER TABLE task_runs ADD COLUMN session_id TEXT;
      ALTER TABLE task_runs ADD COLUMN follow_up TEXT;
      -- Set when a run ends with a pull request: how a review event finds the run (and ticket) it belongs to.
      ALTER TABLE task_runs ADD COLUMN pull_request_url TEXT;
      CREATE INDEX task_runs_by_pull_request ON task_runs (pull_request_url) WHERE pull_request_url IS NOT NULL;
    `,
  },
  CANCEL_ACTOR_AND_ANNOUNCED_STEP,
  APPROVAL_MESSAGE_STEP,
  REPO_URL_STEP,
];

/** The newest schema version this build knows. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** What {@link migrate} did. */
export interface MigrationOutcome {
  /** Version found before (0 for a new database). */
  from: number;
  /** Version now. */
  to: number;
}

/**
 * Brings the schema at `path` to {@link SCHEMA_VERSION} in one IMMEDIATE
 * transaction, so processes opening the same new file at once migrate it
 * once. A database from a newer errand is refused untouched.
 */
export function migrate(db: Database, path: string, now: number): MigrationOutcome {
  const run = db.transaction((): MigrationOutcome => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at INTEGER NOT NULL
    )`);
    const row = db.prepare("SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations").get() as {
      version: number;
    };
    const from = row.version;
    if (from > SCHEMA_VERSION) {
      throw new StoreError(
        `store ${path} has schema version ${from}, but this errand knows versions up to ${SCHEMA_VERSION}: a newer errand wrote it`,
        {
          hint: `run the errand version that wrote ${path} (or a newer one), or set store.path to another file`,
        },
      );
    }
    const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
    for (const step of MIGRATIONS.slice(from)) {
      db.exec(step.sql);
      record.run(step.version, step.name, now);
    }
    return { from, to: SCHEMA_VERSION };
  });
  return run.immediate();
}
