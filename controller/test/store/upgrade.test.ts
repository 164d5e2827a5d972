import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { createSqliteStore } from "../../src/store/index.js";
import { MIGRATIONS as PG_MIGRATIONS } from "../../src/store/postgres/migrations.js";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import { MIGRATIONS as SQLITE_MIGRATIONS } from "../../src/store/sqlite/migrations.js";
import type { Store } from "../../src/store/store.js";
import { ticket } from "./conformance/support.js";
import { olderPostgresSchemaSql, writeOlderSqliteStore } from "./helpers/older-schema.js";
import { NEEDS_POSTGRES, postgresRunnable, usePostgresServer } from "./helpers/postgres-server.js";

const OLD_RUN = "run_00000000000000000000000001";

/** A ticket and its run as `errand runs cancel` of an earlier errand left a Queued run: Cancelled, with its cancel time. */
const OLD_ROWS = `
  INSERT INTO tickets (source, id, payload, first_seen_at, last_seen_at) VALUES ('generic', 'old', '${JSON.stringify(ticket("old"))}', 1, 1);
  INSERT INTO task_runs (id, source, ticket_id, attempt, state, engine, created_at, updated_at, finished_at, reason, result, cancel_requested_at)
  VALUES ('${OLD_RUN}', 'generic', 'old', 1, 'Cancelled', 'default', 1, 2, 2, 'cancelled before the upgrade',
    '{"success":false,"summary":"","pullRequestUrl":"","failureReason":"cancelled before the upgrade"}', 2);`;

/** What every store must do after the upgrade that added announcements. */
async function expectOnlyNewCancelsAnnounced(store: Store): Promise<void> {
  try {
    expect((await store.getRun(OLD_RUN))?.state).toBe("Cancelled");
    // The later step that lists runs by repository filled it in for the runs it found.
    expect((await store.listRuns({ repo: ticket("old").repoUrl })).map((r) => r.id)).toEqual([OLD_RUN]);
    expect(await store.takeUnannounced(10)).toEqual([]);
    const [fresh] = await store.acceptTickets([ticket("new")], "default");
    if (fresh?.kind !== "queued") throw new Error("the new ticket was not queued");
    await store.requestCancel(fresh.runId, "cancelled after the upgrade");
    expect((await store.takeUnannounced(10)).map((t) => t.run.id)).toEqual([fresh.runId]);
  } finally {
    await store.close();
  }
}

describe("upgrading a store to the schema with announcements", () => {
  it("sqlite: a Queued run cancelled before the upgrade is not announced by it; one cancelled after is", async () => {
    const path = join(tempDir("errand-upgrade-"), "errand.db");
    writeOlderSqliteStore(path, SQLITE_MIGRATIONS.slice(0, 2), OLD_ROWS);
    await expectOnlyNewCancelsAnnounced(await createSqliteStore({ path }));
  });

  describe.runIf(postgresRunnable)(`postgres ${NEEDS_POSTGRES}`, () => {
    const server = usePostgresServer();
    it("a Queued run cancelled before the upgrade is not announced by it; one cancelled after is", async () => {
      const { schema, url } = await server().freshSchema();
      await server().sql(olderPostgresSchemaSql(schema, PG_MIGRATIONS.slice(0, 1), OLD_ROWS));
      await expectOnlyNewCancelsAnnounced(await createPostgresStore({ connectionString: url }));
      await server().sql(`DROP SCHEMA ${schema} CASCADE`);
    });
  });
});
