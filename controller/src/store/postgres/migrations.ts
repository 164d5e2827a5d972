import type { Pool } from "pg";
import { StoreError } from "../../errors.js";
import { APPROVAL_MESSAGE_STEP } from "./approval-message-migration.js";
import { CANCEL_ACTOR_AND_ANNOUNCED_STEP } from "./console-actor-migration.js";
import { inTransaction } from "./in-transaction.js";
import { MIGRATION_LOCK } from "./lock-keys.js";
import { MOVE_RUN_STEP } from "./move-run-migration.js";
import { REPO_URL_STEP } from "./repo-url-migration.js";
import { TRANSITION_NUMBER_STEP } from "./transition-number-migration.js";

/** One step of the schema. Released steps never change: add a new one instead. */
interface Migration {
  version: number;
  name: string;
  sql: string;
}

// The states as version 1 released them: a released step never changes (step 3 added AwaitingApproval).
const STATES = ["Queued", "Running", "Succeeded", "Failed", "TimedOut", "Cancelled", "Refused"]
  .map((s) => `'${s}'`)
  .join(", ");
// Every state of version 3, written out for the same reason.
const STATES_V3 = "'Queued', 'Running', 'Succeeded', 'Failed', 'TimedOut', 'Cancelled', 'Refused', 'AwaitingApproval'";

/**
 * The schema, in order; version numbers 1, 2, 3, ... without gaps. The
 * tables are SQLite's (controller/src/store/sqlite/migrations.ts) in
 * PostgreSQL's types: times are BIGINT milliseconds since the epoch, JSON
 * is TEXT (kept as written; jsonb would refuse a `\u0000` in a ticket), run
 * ids sort bytewise (COLLATE "C") as their time order wants.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "tickets, deliveries, task runs and transitions",
    sql: `
      CREATE TABLE tickets (
        source TEXT NOT NULL,
        id TEXT NOT NULL,
        payload TEXT NOT NULL,
        first_seen_at BIGINT NOT NULL,
        last_seen_at BIGINT NOT NULL,
        PRIMARY KEY (source, id)
      );

      CREATE TABLE deliveries (
        key TEXT PRIMARY KEY,
        state TEXT NOT NULL CHECK (state IN ('claimed', 'done')),
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX deliveries_expiry ON deliveries (expires_at);

      CREATE TABLE task_runs (
        id TEXT COLLATE "C" PRIMARY KEY,
        source TEXT NOT NULL,
        ticket_id TEXT NOT NULL,
        attempt INTEGER NOT NULL CHECK (attempt >= 1),
        state TEXT NOT NULL CHECK (state IN (${STATES})),
        engine TEXT NOT NULL,
        backend TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        started_at BIGINT,
        finished_at BIGINT,
        reason TEXT NOT NULL,
        result TEXT,
        cost_usd DOUBLE PRECISION,
        log_ref TEXT,
        attachment TEXT,
        cancel_requested_at BIGINT,
        claimed_by TEXT,
        claim_expires_at BIGINT,
        UNIQUE (source, ticket_id, attempt),
        FOREIGN KEY (source, ticket_id) REFERENCES tickets (source, id)
      );
      -- At most one active attempt per ticket, whatever a caller does: the last line of exactly-once.
      CREATE UNIQUE INDEX task_runs_one_active ON task_runs (source, ticket_id) WHERE state IN ('Queued', 'Running');
      CREATE INDEX task_runs_by_state ON task_runs (state, created_at, id);
      CREATE INDEX task_runs_by_creation ON task_runs (created_at, id);

      CREATE TABLE transitions (
        run_id TEXT COLLATE "C" NOT NULL REFERENCES task_runs (id),
        seq INTEGER NOT NULL,
        from_state TEXT CHECK (from_state IN (${STATES})),
        to_state TEXT NOT NULL CHECK (to_state IN (${STATES})),
        at BIGINT NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      );
    `,
  },
  {
    version: 2,
    name: "ends of runs the observers were not told about yet",
    sql: `
      -- True from the cancel of a Queued run (no loop ended it) until a loop takes it to tell the observers.
      -- Rows written before this step stay false: an upgrade announces nothing from the past.
      ALTER TABLE task_runs ADD COLUMN announce_pending BOOLEAN NOT NULL DEFAULT false;
      CREATE INDEX task_runs_unannounced ON task_runs (finished_at, id) WHERE announce_pending;
    `,
  },
  {
    version: 3,
    name: "runs awaiting approval, and who caused each transition",
    sql: `
      -- The CHECKs of version 1 have PostgreSQL's default names (<table>_<column>_check).
      ALTER TABLE task_runs DROP CONSTRAINT task_runs_state_check,
        ADD CONSTRAINT task_runs_state_check CHECK (state IN (${STATES_V3}));
      ALTER TABLE transitions DROP CONSTRAINT transitions_from_state_check,
        DROP CONSTRAINT transitions_to_state_check,
        ADD CONSTRAINT transitions_from_state_check CHECK (from_state IN (${STATES_V3})),
        ADD CONSTRAINT transitions_to_state_check CHECK (to_state IN (${STATES_V3})),
        ADD COLUMN actor_kind TEXT, ADD COLUMN actor_name TEXT, ADD COLUMN actor_from TEXT;
      -- A run awaiting approval is an active attempt too: a ticket still has at most one.
      DROP INDEX task_runs_one_active;
      CREATE UNIQUE INDEX task_runs_one_active ON task_runs (source, ticket_id)
        WHERE state IN ('Queued', 'Running', 'AwaitingApproval');
    `,
  },
  {
    version: 4,
    name: "the branch a run works on",
    sql: `
      -- Set when the controller prepared a checkout (repositories.codehost_a); NULL for every run before.
      ALTER TABLE task_runs ADD COLUMN branch TEXT;
    `,
  },
  {
    version: 5,
    name: "runs listed by source and by repository",
    sql: `
      -- The ticket's repository, copied onto its runs so the console pages through one repository's runs on an index.
      -- A trigger fills it, so the statements that create runs stay as they are. The json type refuses to turn a
      -- \\u0000 or a lone surrogate escape into text, and a ticket may hold either: such a payload gives NULL rather
      -- than fail the ticket's insert.
      ALTER TABLE task_runs ADD COLUMN repo_url TEXT;
      CREATE FUNCTION errand_ticket_repo(payload TEXT) RETURNS TEXT LANGUAGE sql AS $$
        SELECT CASE WHEN payload ~ '\\\\u(0000|[dD][89a-fA-F])' THEN NULL ELSE payload::json ->> 'repoUrl' END
      $$;
      UPDATE task_runs r SET repo_url = errand_ticket_repo(t.payload)
        FROM tickets t WHERE t.source = r.source AND t.id = r.ticket_id;
      CREATE FUNCTION errand_task_run_repo() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        SELECT errand_ticket_repo(t.payload) INTO NEW.repo_url FROM tickets t
          WHERE t.source = NEW.source AND t.id = NEW.ticket_id;
        RETURN NEW;
      END $$;
      CREATE TRIGGER task_runs_repo_url BEFORE INSERT ON task_runs FOR EACH ROW EXECUTE FUNCTION errand_task_run_repo();
      CREATE INDEX task_runs_by_source ON task_runs (source, created_at, id);
      CREATE INDEX task_runs_by_repo ON task_runs (repo_url, created_at, id);
    `,
  },
  {
    version: 6,
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
  MOVE_RUN_STEP,
  TRANSITION_NUMBER_STEP,
  REPO_URL_STEP,
];

/** The newest schema version this build knows. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** What {@link migrate} did. */
export interface MigrationOutcome {
  /** Version found before (0 for a new schema). */
  from: number;
  /** Version now. */
  to: number;
  /** The schema holding the tables. */
  schema: string;
}

/**
 * Brings errand's tables in the connection's current schema to
 * {@link SCHEMA_VERSION} in one transaction, under a transaction-scoped
 * advisory lock: controllers starting at once migrate one after the other,
 * and the later ones find nothing to do. A schema from a newer errand is
 * refused untouched. The migration table is `errand_migrations`, a name no
 * other tool's bookkeeping uses.
 */
export function migrate(pool: Pool, location: string, now: number): Promise<MigrationOutcome> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ schema: string | null }>("SELECT current_schema() AS schema");
    const schema = rows[0]?.schema;
    if (!schema) {
      throw new StoreError(
        `store ${location}: the search_path names no schema that exists and this role may use, so there is nowhere to create errand's tables`,
        {
          hint: "create the schema for the role (CREATE SCHEMA errand AUTHORIZATION <user>), or fix search_path in the URL's options",
        },
      );
    }
    // A migration on a large table may take longer than the store's usual statement limit.
    await client.query("SET LOCAL statement_timeout = 0");
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK}, hashtext(current_schema()))`);
    await client.query(`CREATE TABLE IF NOT EXISTS errand_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at BIGINT NOT NULL
    )`);
    const found = await client.query<{ version: number }>(
      "SELECT COALESCE(MAX(version), 0)::int AS version FROM errand_migrations",
    );
    const from = found.rows[0]?.version ?? 0;
    if (from > SCHEMA_VERSION) {
      throw new StoreError(
        `store ${location} (schema ${schema}) has schema version ${from}, but this errand knows versions up to ${SCHEMA_VERSION}: a newer errand wrote it`,
        {
          hint: "run the errand version that wrote it (or a newer one), or point store.url_secret at another database or schema",
        },
      );
    }
    for (const step of MIGRATIONS.slice(from)) {
      await client.query(step.sql);
      await client.query("INSERT INTO errand_migrations (version, name, applied_at) VALUES ($1, $2, $3)", [
        step.version,
        step.name,
        now,
      ]);
    }
    return { from, to: SCHEMA_VERSION, schema };
  });
}
