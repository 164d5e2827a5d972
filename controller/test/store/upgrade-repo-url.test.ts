import pg from "pg";
import { describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../src/store/postgres/migrations.js";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import { REPO_URL_STEP } from "../../src/store/postgres/repo-url-migration.js";
import { ticket } from "./conformance/support.js";
import { olderPostgresSchemaSql } from "./helpers/older-schema.js";
import { NEEDS_POSTGRES, postgresRunnable, usePostgresServer } from "./helpers/postgres-server.js";

const REPO = "https://codehost.example/acme/old";
const OLD_RUN = "run_00000000000000000000000001";

/** A run stored before the step, whose repository the trigger of version 5 filled. */
const OLD_ROWS = `
  INSERT INTO tickets (source, id, payload, first_seen_at, last_seen_at)
  VALUES ('generic', 'old', '${JSON.stringify(ticket("old", "generic", { repoUrl: REPO }))}', 1, 1);
  INSERT INTO task_runs (id, source, ticket_id, attempt, state, engine, created_at, updated_at, reason)
  VALUES ('${OLD_RUN}', 'generic', 'old', 1, 'Succeeded', 'default', 1, 1, 'done');`;

describe.runIf(postgresRunnable)(`a run's repository written with the run ${NEEDS_POSTGRES}`, () => {
  const server = usePostgresServer();

  it("keeps the repositories of runs stored before, and fills those of runs inserted without one", async () => {
    const { schema, url } = await server().freshSchema();
    await server().sql(
      olderPostgresSchemaSql(schema, MIGRATIONS.slice(0, MIGRATIONS.indexOf(REPO_URL_STEP)), OLD_ROWS),
    );
    const store = await createPostgresStore({ connectionString: url });
    const raw = new pg.Client({ connectionString: url });
    await raw.connect();
    try {
      expect((await store.listRuns({ repo: REPO })).map((r) => r.id)).toEqual([OLD_RUN]);
      // An errand of the version before inserts a run without its repository (a rolling upgrade): the trigger fills it.
      await raw.query(
        `INSERT INTO task_runs (id, source, ticket_id, attempt, state, engine, created_at, updated_at, reason)
         VALUES ('run_00000000000000000000000002', 'generic', 'old', 2, 'Queued', 'default', 2, 2, 'again')`,
      );
      expect((await store.listRuns({ repo: REPO })).map((r) => r.attempt)).toEqual([2, 1]);
      // Today's intake writes it; a retry (no repository given) still gets it from the trigger.
      const [fresh] = await store.acceptTickets([ticket("new", "generic", { repoUrl: REPO })], "default");
      const run = await store.listRuns({ ticket: { source: "generic", id: "new" } });
      expect(run.map((r) => r.id)).toEqual([fresh?.runId]);
      await store.requestCancel(fresh?.runId as string, "stop");
      await store.retry(fresh?.runId as string, "again");
      const byRepo = await store.listRuns({ repo: REPO, source: "generic" });
      expect(byRepo.filter((r) => r.ticket.id === "new").map((r) => r.attempt)).toEqual([2, 1]);
      // A repository text PostgreSQL cannot hold as given is left to the trigger, which stores no repository.
      const [odd] = await store.acceptTickets([ticket("odd", "generic", { repoUrl: `${REPO}\u0000` })], "default");
      const { rows } = await raw.query("SELECT repo_url FROM task_runs WHERE id = $1", [odd?.runId]);
      expect(rows).toEqual([{ repo_url: null }]);
    } finally {
      await raw.end();
      await store.close();
    }
  });
});
