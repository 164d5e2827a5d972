import { join } from "node:path";
import Database from "better-sqlite3";
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

/** A finished run with two transitions, as an errand before approvals stored it. */
const OLD_ROWS = `
  INSERT INTO tickets (source, id, payload, first_seen_at, last_seen_at) VALUES ('generic', 'old', '${JSON.stringify(ticket("old"))}', 1, 1);
  INSERT INTO task_runs (id, source, ticket_id, attempt, state, engine, created_at, updated_at, finished_at, reason, cost_usd)
  VALUES ('${OLD_RUN}', 'generic', 'old', 1, 'Succeeded', 'default', 1, 3, 3, 'done', 1.5);
  INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason) VALUES ('${OLD_RUN}', 1, NULL, 'Queued', 1, 'accepted');
  INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason) VALUES ('${OLD_RUN}', 2, 'Queued', 'Refused', 3, 'done');`;

/** What every store keeps and allows after the upgrade that added AwaitingApproval. */
async function expectKeptAndAwaitingAllowed(store: Store): Promise<void> {
  try {
    expect(await store.getRun(OLD_RUN)).toMatchObject({ state: "Succeeded", costUsd: 1.5, reason: "done" });
    expect(await store.transitions(OLD_RUN)).toEqual([
      { runId: OLD_RUN, seq: 1, from: undefined, to: "Queued", at: 1, reason: "accepted", actor: undefined },
      { runId: OLD_RUN, seq: 2, from: "Queued", to: "Refused", at: 3, reason: "done", actor: undefined },
    ]);
    const [held] = await store.acceptTickets([ticket("new")], "default", { needsApproval: () => true });
    if (held?.kind !== "queued") throw new Error("the new ticket was not stored");
    expect((await store.getRun(held.runId))?.state).toBe("AwaitingApproval");
    const actor = { kind: "cli" as const, name: "alice" };
    await store.transition({ runId: held.runId, from: ["AwaitingApproval"], to: "Queued", reason: "ok", actor });
    expect((await store.transitions(held.runId)).at(-1)?.actor).toEqual(actor);
  } finally {
    await store.close();
  }
}

describe("upgrading a store to the schema with approvals", () => {
  it("sqlite: the rebuilt tables keep every run and transition, and take AwaitingApproval and actors", async () => {
    const path = join(tempDir("errand-upgrade-"), "errand.db");
    writeOlderSqliteStore(path, SQLITE_MIGRATIONS.slice(0, 3), OLD_ROWS);
    await expectKeptAndAwaitingAllowed(await createSqliteStore({ path }));
    const after = new Database(path);
    expect(after.pragma("foreign_key_check")).toEqual([]);
    expect(after.pragma("integrity_check", { simple: true })).toBe("ok");
    after.close();
  });

  describe.runIf(postgresRunnable)(`postgres ${NEEDS_POSTGRES}`, () => {
    const server = usePostgresServer();
    it("keeps every run and transition, and takes AwaitingApproval and actors", async () => {
      const { schema, url } = await server().freshSchema();
      await server().sql(olderPostgresSchemaSql(schema, PG_MIGRATIONS.slice(0, 2), OLD_ROWS));
      await expectKeptAndAwaitingAllowed(await createPostgresStore({ connectionString: url }));
      await server().sql(`DROP SCHEMA ${schema} CASCADE`);
    });
  });
});
