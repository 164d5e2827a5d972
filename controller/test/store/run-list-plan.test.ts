import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { createSqliteStore } from "../../src/store/index.js";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import { runListQuery, runListSql } from "../../src/store/run-list-query.js";
import type { RunFilter } from "../../src/store/store.js";
import { NEEDS_POSTGRES, postgresRunnable, usePostgresServer } from "./helpers/postgres-server.js";

// The console pages through 100,000 runs: each filter it offers must read its page from an index already in the
// list's order (no sort of every matching run). Checked on the query plans of a store holding that many runs, not
// on a timing.
const RUNS = 100_000;
const CURSOR = { createdAt: 1_700_050_000_000, id: "run_50000" };
const FILTERS: Record<string, RunFilter> = {
  none: { limit: 50 },
  state: { states: ["Failed"], limit: 50 },
  source: { source: "s3", limit: 50 },
  repo: { repo: "https://codehost.example/acme/r7", limit: 50 },
  "page after a cursor": { limit: 50, before: CURSOR },
  "source, after a cursor": { source: "s3", limit: 50, before: CURSOR },
  "repo, after a cursor": { repo: "https://codehost.example/acme/r7", limit: 50, before: CURSOR },
};

// Tickets and runs written straight in SQL: 100,000 through the intake would take minutes on a small machine.
const SEED_TICKETS = `INSERT INTO tickets (source, id, payload, first_seen_at, last_seen_at)
  SELECT 's' || (n % 5), 't' || n, '{"repoUrl":"https://codehost.example/acme/r' || (n % 11) || '"}', 0, 0 FROM seq`;
const SEED_RUNS = `INSERT INTO task_runs (id, source, ticket_id, attempt, state, engine, created_at, updated_at, reason)
  SELECT 'run_' || n, 's' || (n % 5), 't' || n, 1,
    CASE n % 3 WHEN 0 THEN 'Succeeded' WHEN 1 THEN 'Failed' ELSE 'Cancelled' END,
    'default', 1700000000000 + n * 1000, 0, 'seeded' FROM seq`;

describe("listing runs with 100,000 in the store", () => {
  it("SQLite reads every filter's page from an index in the list's order", async () => {
    const path = join(tempDir("errand-plan-"), "errand.db");
    await (await createSqliteStore({ path })).close();
    const db = new BetterSqlite3(path);
    try {
      const seq = `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${RUNS})`;
      db.exec(`${seq} ${SEED_TICKETS}; ${seq} ${SEED_RUNS}; ANALYZE;`);
      expect(db.prepare("SELECT COUNT(*) AS n FROM task_runs WHERE repo_url IS NOT NULL").get()).toEqual({ n: RUNS });
      for (const [name, filter] of Object.entries(FILTERS)) {
        const query = runListQuery(filter, () => "?");
        const plan = db
          .prepare(`EXPLAIN QUERY PLAN ${runListSql(query, "r.id", () => "?")}`)
          .all(...query.params)
          .map((row) => (row as { detail: string }).detail)
          .join("; ");
        expect(plan, name).toMatch(/USING (COVERING )?INDEX task_runs_by_/);
        expect(plan, name).not.toMatch(/TEMP B-TREE/);
      }
    } finally {
      db.close();
    }
  }, 60_000);

  describe.runIf(postgresRunnable)(`PostgreSQL ${NEEDS_POSTGRES}`, () => {
    const server = usePostgresServer();
    it("reads every filter's page from an index in the list's order", async () => {
      const { schema, url } = await server().freshSchema();
      await (await createPostgresStore({ connectionString: url })).close();
      const seq = `WITH seq(n) AS (SELECT generate_series(1, ${RUNS}))`;
      await server().sql(`SET search_path = ${schema}; ${seq} ${SEED_TICKETS}; ${seq} ${SEED_RUNS}; ANALYZE;`);
      for (const [name, filter] of Object.entries(FILTERS)) {
        const mark = (n: number) => `$${n}`;
        const query = runListQuery(filter, mark);
        const rows = await server().sql<{ "QUERY PLAN": string }>(
          `EXPLAIN ${runListSql(query, "r.id", mark).replace("FROM task_runs", `FROM ${schema}.task_runs`)}`,
          query.params,
        );
        const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
        expect(plan, name).toMatch(/Index (Only )?Scan (Backward )?using task_runs_by_/);
        expect(plan, name).not.toMatch(/Sort/);
      }
      await server().sql(`DROP SCHEMA ${schema} CASCADE`);
    }, 120_000);
  });
});
