import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { createSqliteStore } from "../../src/store/index.js";
import { APPROVAL_MESSAGE_STEP as PG_STEP } from "../../src/store/postgres/approval-message-migration.js";
import { MIGRATIONS as PG_MIGRATIONS } from "../../src/store/postgres/migrations.js";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import { APPROVAL_MESSAGE_STEP as SQLITE_STEP } from "../../src/store/sqlite/approval-message-migration.js";
import { MIGRATIONS as SQLITE_MIGRATIONS } from "../../src/store/sqlite/migrations.js";
import type { Store } from "../../src/store/store.js";
import { ticket } from "./conformance/support.js";
import { olderPostgresSchemaSql, writeOlderSqliteStore } from "./helpers/older-schema.js";
import { NEEDS_POSTGRES, postgresRunnable, usePostgresServer } from "./helpers/postgres-server.js";

const DECIDED = "run_00000000000000000000000001";
const WAITING = "run_00000000000000000000000002";
const TAKE = { limit: 10, leaseMs: 60_000, maxAttempts: 5 };

/** A run refused and one still waiting, stored by an errand before approval messages were recorded. */
const OLD_ROWS = `
  INSERT INTO tickets (source, id, payload, first_seen_at, last_seen_at) VALUES
    ('generic', 'old', '${JSON.stringify(ticket("old"))}', 1, 1), ('generic', 'held', '${JSON.stringify(ticket("held"))}', 1, 1);
  INSERT INTO task_runs (id, source, ticket_id, attempt, state, engine, created_at, updated_at, reason) VALUES
    ('${DECIDED}', 'generic', 'old', 1, 'Refused', 'default', 1, 2, 'approval timed out after 24h'),
    ('${WAITING}', 'generic', 'held', 1, 'AwaitingApproval', 'default', 1, 1, 'waits');
  INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason) VALUES
    ('${DECIDED}', 1, NULL, 'AwaitingApproval', 1, 'waits'),
    ('${DECIDED}', 2, 'AwaitingApproval', 'Refused', 2, 'approval timed out after 24h'),
    ('${WAITING}', 1, NULL, 'AwaitingApproval', 1, 'waits');`;

/** The upgrade updates no message from the past (none is recorded); a run waiting through it gets its message updated. */
async function expectNothingFromThePast(store: Store): Promise<void> {
  try {
    expect(await store.takeApprovalMessageUpdates(TAKE)).toEqual([]);
    await store.recordApprovalMessage(WAITING, "C1", "1.1");
    await store.transition({ runId: WAITING, from: ["AwaitingApproval"], to: "Queued", reason: "approved" });
    expect((await store.takeApprovalMessageUpdates(TAKE)).map((t) => [t.run.id, t.ts, t.attempt])).toEqual([
      [WAITING, "1.1", 1],
    ]);
  } finally {
    await store.close();
  }
}

describe("upgrading a store to the schema with chat A's approval messages", () => {
  it("sqlite: no message of a run decided before is taken; one recorded after is", async () => {
    const path = join(tempDir("errand-upgrade-"), "errand.db");
    writeOlderSqliteStore(path, SQLITE_MIGRATIONS.slice(0, SQLITE_MIGRATIONS.indexOf(SQLITE_STEP)), OLD_ROWS);
    await expectNothingFromThePast(await createSqliteStore({ path }));
  });

  describe.runIf(postgresRunnable)(`postgres ${NEEDS_POSTGRES}`, () => {
    const server = usePostgresServer();
    it("no message of a run decided before is taken; one recorded after is", async () => {
      const { schema, url } = await server().freshSchema();
      await server().sql(
        olderPostgresSchemaSql(schema, PG_MIGRATIONS.slice(0, PG_MIGRATIONS.indexOf(PG_STEP)), OLD_ROWS),
      );
      await expectNothingFromThePast(await createPostgresStore({ connectionString: url }));
      await server().sql(`DROP SCHEMA ${schema} CASCADE`);
    });
  });
});
