import pg from "pg";
import { describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../src/store/postgres/migrations.js";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import { TRANSITION_NUMBER_STEP } from "../../src/store/postgres/transition-number-migration.js";
import { ticket } from "./conformance/support.js";
import { olderPostgresSchemaSql } from "./helpers/older-schema.js";
import { NEEDS_POSTGRES, postgresRunnable, usePostgresServer } from "./helpers/postgres-server.js";

const OLD_RUNS = ["run_00000000000000000000000001", "run_00000000000000000000000002"];

const OLD_QUEUED = "run_00000000000000000000000003";

/**
 * Two Running runs as an errand before the transition numbers left them (two transition rows each, no number),
 * and a Queued one (one row).
 */
const OLD_ROWS = `
  INSERT INTO tickets (source, id, payload, first_seen_at, last_seen_at) VALUES ('generic', 'queued', '${JSON.stringify(ticket("queued"))}', 1, 1);
  INSERT INTO task_runs (id, source, ticket_id, attempt, state, engine, created_at, updated_at, reason)
  VALUES ('${OLD_QUEUED}', 'generic', 'queued', 1, 'Queued', 'default', 1, 1, 'new');
  INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason) VALUES ('${OLD_QUEUED}', 1, NULL, 'Queued', 1, 'new');
${OLD_RUNS.map(
  (id, i) => `
  INSERT INTO tickets (source, id, payload, first_seen_at, last_seen_at) VALUES ('generic', 'old${i}', '${JSON.stringify(ticket(`old${i}`))}', 1, 1);
  INSERT INTO task_runs (id, source, ticket_id, attempt, state, engine, created_at, updated_at, started_at, reason)
  VALUES ('${id}', 'generic', 'old${i}', 1, 'Running', 'default', 1, 2, 2, 'slot');
  INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason) VALUES ('${id}', 1, NULL, 'Queued', 1, 'new');
  INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason) VALUES ('${id}', 2, 'Queued', 'Running', 2, 'slot');`,
).join("\n")}`;

describe.runIf(postgresRunnable)(
  `upgrading a PostgreSQL store to transition numbers kept on the run ${NEEDS_POSTGRES}`,
  () => {
    const server = usePostgresServer();

    it("numbers the next transitions of runs stored before, and of runs created after, without gaps", async () => {
      const { schema, url } = await server().freshSchema();
      await server().sql(
        olderPostgresSchemaSql(schema, MIGRATIONS.slice(0, MIGRATIONS.indexOf(TRANSITION_NUMBER_STEP)), OLD_ROWS),
      );
      const store = await createPostgresStore({ connectionString: url });
      const other = await createPostgresStore({ connectionString: url });
      try {
        // Two stores race on an old run's first transition: one wins, and its row is number 3.
        const [a, b] = await Promise.all([
          store.transition({ runId: OLD_RUNS[0] as string, from: ["Running"], to: "Succeeded", reason: "done" }),
          other.transition({ runId: OLD_RUNS[0] as string, from: ["Running"], to: "Cancelled", reason: "cancel" }),
        ]);
        expect([a, b].filter((r) => r !== undefined)).toHaveLength(1);
        const seqs = async (id: string) => (await store.transitions(id)).map((t) => [t.seq, t.from, t.to]);
        expect(await seqs(OLD_RUNS[0] as string)).toEqual([
          [1, undefined, "Queued"],
          [2, "Queued", "Running"],
          [3, "Running", (a ?? b)?.state],
        ]);
        // Two stores move the old Queued run one after the other: the second numbers its row after the first's.
        const moves = await Promise.all([
          store.transition({ runId: OLD_QUEUED, from: ["Queued"], to: "Running", reason: "slot" }),
          other.transition({ runId: OLD_QUEUED, from: ["Queued", "Running"], to: "Cancelled", reason: "cancel" }),
        ]);
        expect((await seqs(OLD_QUEUED)).map(([seq]) => seq)).toEqual([
          1,
          ...moves.filter((m) => m !== undefined).map((_, n) => n + 2),
        ]);
        // A cancel requested on the other old run ends it through the same numbering.
        await store.requestCancel(OLD_RUNS[1] as string, "stop");
        await store.transition({ runId: OLD_RUNS[1] as string, from: ["Running"], to: "Cancelled", reason: "stopped" });
        expect((await seqs(OLD_RUNS[1] as string)).map(([seq]) => seq)).toEqual([1, 2, 3]);

        const [fresh] = await store.acceptTickets([ticket("new")], "default");
        if (fresh?.kind !== "queued") throw new Error("the new ticket was not queued");
        await other.transition({ runId: fresh.runId, from: ["Queued"], to: "Running", reason: "slot" });
        await store.transition({ runId: fresh.runId, from: ["Running"], to: "Failed", reason: "engine failed" });
        const retried = await store.retry(fresh.runId, "again");
        await store.transition({ runId: retried.id, from: ["Queued"], to: "Running", reason: "slot" });
        expect(await seqs(fresh.runId)).toEqual([
          [1, undefined, "Queued"],
          [2, "Queued", "Running"],
          [3, "Running", "Failed"],
        ]);
        expect((await seqs(retried.id)).map(([seq]) => seq)).toEqual([1, 2]);
      } finally {
        await store.close();
        await other.close();
      }
      await server().sql(`DROP SCHEMA ${schema} CASCADE`);
    });

    it("a transition that waited for the run's lock reads the state and number the holder committed", async () => {
      const { schema, url } = await server().freshSchema();
      const store = await createPostgresStore({ connectionString: url });
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      try {
        // Numbered (a run of this version) and unnumbered (stored before it): the holder moves either as this
        // version does, numbering its row; the waiter then moves on from what it committed.
        for (const stored of ["numbered", "unnumbered"]) {
          const [accepted] = await store.acceptTickets([ticket(`held-${stored}`)], "default");
          if (accepted?.kind !== "queued") throw new Error("the ticket was not queued");
          const runId = accepted.runId;
          if (stored === "unnumbered")
            await holder.query("UPDATE task_runs SET last_transition = NULL WHERE id = $1", [runId]);
          await holder.query("BEGIN");
          await holder.query("SELECT 1 FROM task_runs WHERE id = $1 FOR UPDATE", [runId]);
          const waiting = store.transition({ runId, from: ["Queued", "Running"], to: "Cancelled", reason: "cancel" });
          await waitForLockWaiter(holder);
          await holder.query("UPDATE task_runs SET state = 'Running', last_transition = 2 WHERE id = $1", [runId]);
          await holder.query(
            "INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason) VALUES ($1, 2, 'Queued', 'Running', 2, 'slot')",
            [runId],
          );
          await holder.query("COMMIT");
          expect(await waiting).toMatchObject({ state: "Cancelled" });
          expect((await store.transitions(runId)).map((t) => [t.seq, t.from, t.to])).toEqual([
            [1, undefined, "Queued"],
            [2, "Queued", "Running"],
            [3, "Running", "Cancelled"],
          ]);
        }

        // An older errand (a replica not yet upgraded) writes a row without the number; the next move counts it.
        const [older] = await store.acceptTickets([ticket("older-replica")], "default");
        if (older?.kind !== "queued") throw new Error("the ticket was not queued");
        await store.transition({ runId: older.runId, from: ["Queued"], to: "Running", reason: "slot" });
        await holder.query("UPDATE task_runs SET state = 'Queued' WHERE id = $1", [older.runId]);
        await holder.query(
          "INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason) VALUES ($1, 3, 'Running', 'Queued', 3, 'requeued')",
          [older.runId],
        );
        await store.transition({ runId: older.runId, from: ["Queued"], to: "Running", reason: "slot again" });
        expect((await store.transitions(older.runId)).map((t) => t.seq)).toEqual([1, 2, 3, 4]);

        // A run stored before the numbers with no history row at all (a repaired database) moves as number 1.
        await holder.query("DELETE FROM transitions WHERE run_id = $1", [older.runId]);
        await holder.query("UPDATE task_runs SET last_transition = NULL WHERE id = $1", [older.runId]);
        await store.transition({ runId: older.runId, from: ["Running"], to: "Succeeded", reason: "done" });
        expect((await store.transitions(older.runId)).map((t) => [t.seq, t.from, t.to])).toEqual([
          [1, "Running", "Succeeded"],
        ]);
      } finally {
        await holder.end();
        await store.close();
      }
      await server().sql(`DROP SCHEMA ${schema} CASCADE`);
    });
  },
);

/** Waits until another session waits for a lock this client's transaction holds (pg_stat_activity). */
async function waitForLockWaiter(client: pg.Client): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await client.query(
      "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND $1 = ANY (pg_blocking_pids(pid))",
      [(client as unknown as { processID: number }).processID],
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("no transition waited for the held lock within 5 s");
}
