import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { createSqliteStore } from "../../src/store/index.js";
import { CANCEL_ACTOR_AND_ANNOUNCED_STEP as PG_STEP } from "../../src/store/postgres/console-actor-migration.js";
import { MIGRATIONS as PG_MIGRATIONS } from "../../src/store/postgres/migrations.js";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import { CANCEL_ACTOR_AND_ANNOUNCED_STEP as SQLITE_STEP } from "../../src/store/sqlite/console-actor-migration.js";
import { MIGRATIONS as SQLITE_MIGRATIONS } from "../../src/store/sqlite/migrations.js";
import type { Store } from "../../src/store/store.js";
import { ticket } from "./conformance/support.js";
import { olderPostgresSchemaSql, writeOlderSqliteStore } from "./helpers/older-schema.js";
import { NEEDS_POSTGRES, postgresRunnable, usePostgresServer } from "./helpers/postgres-server.js";

const WAITING = "run_00000000000000000000000002";

/** A run awaiting approval, stored (and announced) by an errand before the announcement mark existed. */
const OLD_ROWS = `
  INSERT INTO tickets (source, id, payload, first_seen_at, last_seen_at) VALUES ('generic', 'held', '${JSON.stringify(ticket("held"))}', 1, 1);
  INSERT INTO task_runs (id, source, ticket_id, attempt, state, engine, created_at, updated_at, reason)
  VALUES ('${WAITING}', 'generic', 'held', 1, 'AwaitingApproval', 'default', 1, 1, 'waits');
  INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason) VALUES ('${WAITING}', 1, NULL, 'AwaitingApproval', 1, 'waits');`;

/** The upgrade announces nothing from the past; a run held after it is announced once. */
async function expectOldWaitNotAnnouncedAgain(store: Store): Promise<void> {
  try {
    expect(await store.getRun(WAITING)).toMatchObject({ state: "AwaitingApproval", cancelRequestedBy: undefined });
    expect(await store.claimApprovalAnnouncement(WAITING)).toBe(false);
    const [held] = await store.acceptTickets([ticket("new")], "default", { needsApproval: () => true });
    if (held?.kind !== "queued") throw new Error("the new ticket was not stored");
    expect(await store.claimApprovalAnnouncement(held.runId)).toBe(true);
    expect(await store.claimApprovalAnnouncement(held.runId)).toBe(false);
  } finally {
    await store.close();
  }
}

describe("upgrading a store to the schema with cancel requesters and announcement marks", () => {
  it("sqlite: a run already waiting counts as announced", async () => {
    const path = join(tempDir("errand-upgrade-"), "errand.db");
    writeOlderSqliteStore(path, SQLITE_MIGRATIONS.slice(0, SQLITE_MIGRATIONS.indexOf(SQLITE_STEP)), OLD_ROWS);
    await expectOldWaitNotAnnouncedAgain(await createSqliteStore({ path }));
  });

  describe.runIf(postgresRunnable)(`postgres ${NEEDS_POSTGRES}`, () => {
    const server = usePostgresServer();
    it("a run already waiting counts as announced", async () => {
      const { schema, url } = await server().freshSchema();
      await server().sql(
        olderPostgresSchemaSql(schema, PG_MIGRATIONS.slice(0, PG_MIGRATIONS.indexOf(PG_STEP)), OLD_ROWS),
      );
      await expectOldWaitNotAnnouncedAgain(await createPostgresStore({ connectionString: url }));
      await server().sql(`DROP SCHEMA ${schema} CASCADE`);
    });
  });
});
