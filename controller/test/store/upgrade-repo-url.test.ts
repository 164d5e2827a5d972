import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { createSqliteStore } from "../../src/store/index.js";
import { MIGRATIONS as PG_MIGRATIONS } from "../../src/store/postgres/migrations.js";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import { REPO_URL_STEP as PG_STEP } from "../../src/store/postgres/repo-url-migration.js";
import { MIGRATIONS as SQLITE_MIGRATIONS } from "../../src/store/sqlite/migrations.js";
import { REPO_URL_STEP as SQLITE_STEP } from "../../src/store/sqlite/repo-url-migration.js";
import type { Store } from "../../src/store/store.js";
import { ticket } from "./conformance/support.js";
import { olderPostgresSchemaSql, writeOlderSqliteStore } from "./helpers/older-schema.js";
import { NEEDS_POSTGRES, postgresRunnable, usePostgresServer } from "./helpers/postgres-server.js";

const REPO = "https://codehost.example/acme/old";
const OLD_RUN = "run_00000000000000000000000001";

/** A run stored before the step, whose repository the trigger filled. */
const OLD_ROWS = `
  INSERT INTO tickets (source, id, payload, first_seen_at, last_seen_at)
  VALUES ('generic', 'old', '${JSON.stringify(ticket("old", "generic", { repoUrl: REPO }))}', 1, 1);
  INSERT INTO task_runs (id, source, ticket_id, attempt, state, engine, created_at, updated_at, reason)
  VALUES ('${OLD_RUN}', 'generic', 'old', 1, 'Succeeded', 'default', 1, 1, 'done');`;

/** An insert without the repository, as an errand of the version before makes (a rolling upgrade). */
const OLDER_INSERT = `INSERT INTO task_runs (id, source, ticket_id, attempt, state, engine, created_at, updated_at, reason)
  VALUES ('run_00000000000000000000000002', 'generic', 'old', 2, 'Queued', 'default', 2, 2, 'again')`;

interface Raw {
  exec(sql: string): Promise<void>;
  repoOf(runId: string): Promise<unknown>;
  /** What the store keeps for a repository text with a NUL, and with a lone surrogate: its trigger's reading. */
  nulRepo: unknown;
  loneRepo: unknown;
}

/** Ends run `runId` with a pull request, and creates a follow-up of it: the follow-up's id. */
async function followUpOf(store: Store, runId: string): Promise<string> {
  const url = "https://codehost.example/acme/old/pull/1";
  await store.transition({ runId, from: ["Queued"], to: "Running", reason: "go" });
  const result = { success: true, summary: "done", pullRequestUrl: url, failureReason: "" };
  await store.transition({ runId, from: ["Running"], to: "Succeeded", reason: "ok", patch: { result } });
  const pullRequest = { number: 1, url, branch: "errand/body" };
  const followUp = { pullRequest, trigger: "review" as const, reviewState: "commented", comments: [] };
  const child = await store.createFollowUp({ parentRunId: runId, followUp, reason: "review", maxPerPullRequest: 3 });
  return child.id;
}

async function expectRepositories(store: Store, raw: Raw): Promise<void> {
  try {
    expect((await store.listRuns({ repo: REPO })).map((r) => r.id)).toEqual([OLD_RUN]);
    await raw.exec(OLDER_INSERT);
    expect((await store.listRuns({ repo: REPO })).map((r) => r.attempt)).toEqual([2, 1]);
    // The intake writes it; so does a retry on PostgreSQL, while SQLite's trigger reads it from the stored JSON.
    const [fresh] = await store.acceptTickets([ticket("new", "generic", { repoUrl: REPO })], "default");
    const runId = fresh?.runId as string;
    expect(await raw.repoOf(runId)).toBe(REPO);
    await store.requestCancel(runId, "stop");
    const retried = await store.retry(runId, "again");
    expect(await raw.repoOf(retried.id)).toBe(REPO);
    // A body the JSON type of PostgreSQL cannot read: every attempt, a follow-up too, still has its repository.
    const body = ticket("body", "generic", { repoUrl: REPO, description: "a \u0000 and a lone \ud800" });
    const [first] = await store.acceptTickets([body], "default");
    expect(await raw.repoOf(await followUpOf(store, first?.runId as string))).toBe(REPO);
    // A repository text with a NUL, or a lone surrogate, is left to the trigger, which reads the stored JSON as before.
    const [nul] = await store.acceptTickets([ticket("nul", "generic", { repoUrl: `${REPO}\u0000` })], "default");
    expect(await raw.repoOf(nul?.runId as string)).toBe(raw.nulRepo);
    const [lone] = await store.acceptTickets([ticket("lone", "generic", { repoUrl: `${REPO}\ud800` })], "default");
    expect(await raw.repoOf(lone?.runId as string)).toBe(raw.loneRepo);
  } finally {
    await store.close();
  }
}

describe("a run's repository written with the run", () => {
  it("sqlite: keeps the repositories of runs stored before, and fills those of runs inserted without one", async () => {
    const path = join(tempDir("errand-upgrade-"), "errand.db");
    writeOlderSqliteStore(path, SQLITE_MIGRATIONS.slice(0, SQLITE_MIGRATIONS.indexOf(SQLITE_STEP)), OLD_ROWS);
    const store = await createSqliteStore({ path });
    const db = new Database(path);
    try {
      await expectRepositories(store, {
        exec: async (sql) => void db.exec(sql),
        repoOf: async (id) =>
          (db.prepare("SELECT repo_url FROM task_runs WHERE id = ?").get(id) as { repo_url: unknown }).repo_url,
        nulRepo: `${REPO}\u0000`,
        // SQLite's JSON decodes the escape into three bytes that are not UTF-8: one replacement character each.
        loneRepo: `${REPO}\ufffd\ufffd\ufffd`,
      });
    } finally {
      db.close();
    }
  });

  describe.runIf(postgresRunnable)(`postgres ${NEEDS_POSTGRES}`, () => {
    const server = usePostgresServer();
    it("keeps the repositories of runs stored before, and fills those of runs inserted without one", async () => {
      const { schema, url } = await server().freshSchema();
      await server().sql(
        olderPostgresSchemaSql(schema, PG_MIGRATIONS.slice(0, PG_MIGRATIONS.indexOf(PG_STEP)), OLD_ROWS),
      );
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await expectRepositories(await createPostgresStore({ connectionString: url }), {
          exec: async (sql) => void (await client.query(sql)),
          repoOf: async (id) =>
            (await client.query("SELECT repo_url FROM task_runs WHERE id = $1", [id])).rows[0]?.repo_url,
          nulRepo: null,
          loneRepo: null,
        });
      } finally {
        await client.end();
        await server().sql(`DROP SCHEMA ${schema} CASCADE`);
      }
    });
  });
});
