import type { Pool } from "pg";
import { StoreError } from "../../errors.js";
import { RUN_STATES } from "../../runs/task-run.js";
import { inTransaction } from "./in-transaction.js";
import { MIGRATION_LOCK } from "./lock-keys.js";

/** One step of the schema. Released steps never change: add a new one instead. */
interface Migration {
  version: number;
  name: string;
  sql: string;
}

const STATES = RUN_STATES.map((s) => `'${s}'`).join(", ");

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
