import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import type { TaskRun } from "../../src/runs/task-run.js";
import { moveValues } from "../../src/store/postgres/move-run.js";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import { createTransitionQueue } from "../../src/store/postgres/transition-queue.js";
import type { Store } from "../../src/store/store.js";
import { runIn } from "./conformance/support.js";
import { NEEDS_POSTGRES, postgresRunnable, usePostgresServer } from "./helpers/postgres-server.js";

/** What a pool was asked: each statement's name, or its text. */
type Asked = string[];

describe.runIf(postgresRunnable)(
  `PostgreSQL store: transitions made at once share a statement ${NEEDS_POSTGRES}`,
  () => {
    const server = usePostgresServer();
    const closing: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const close of closing.splice(0)) await close();
    });

    async function fresh(): Promise<{ store: Store; schema: string; url: string }> {
      const { schema, url } = await server().freshSchema();
      const store = await createPostgresStore({ connectionString: url });
      closing.push(async () => {
        await store.close();
        await server().sql(`DROP SCHEMA ${schema} CASCADE`);
      });
      return { store, schema, url };
    }

    /** A pool on `url` that records what it is asked, and fails the statements `fail` picks with its error. */
    function recordingPool(url: string, fail?: (asked: string) => Error | undefined): { pool: pg.Pool; asked: Asked } {
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      closing.unshift(() => pool.end());
      const asked: Asked = [];
      const recording = {
        query: (config: string | { name?: string; text: string }, values?: unknown[]) => {
          const what = typeof config === "string" ? config : (config.name ?? config.text);
          asked.push(what);
          const error = fail?.(what);
          return error ? Promise.reject(error) : pool.query(config as string, values);
        },
      } as unknown as pg.Pool;
      return { pool: recording, asked };
    }

    const toRunning = (run: TaskRun, n: number) =>
      moveValues({ runId: run.id, to: "Running", reason: `slot ${n}` }, ["Queued"], run.createdAt + n);

    it("sends the first move at once and those that came meanwhile in one statement", async () => {
      const { store, url } = await fresh();
      const runs = await Promise.all(Array.from({ length: 16 }, () => runIn(store, "Queued")));
      const { pool, asked } = recordingPool(url);
      const queue = createTransitionQueue(pool);
      const moved = await Promise.all(runs.map((run, n) => queue(toRunning(run, n))));
      expect(asked.filter((a) => a === "errand.move_run_unless_locked")).toHaveLength(1);
      expect(asked.filter((a) => a.includes("jsonb_to_recordset"))).toHaveLength(1);
      expect(asked).toHaveLength(2);
      expect(moved.map((row) => [row?.id, row?.state, row?.reason])).toEqual(
        runs.map((run, n) => [run.id, "Running", `slot ${n}`]),
      );
      for (const run of runs) {
        expect((await store.transitions(run.id)).map((t) => [t.seq, t.to])).toEqual([
          [1, "Queued"],
          [2, "Running"],
        ]);
      }
    });

    it("moves the other runs while one run's row is locked elsewhere, and that one, in order, once it is free", async () => {
      const { store, url } = await fresh();
      const runs = await Promise.all(Array.from({ length: 8 }, () => runIn(store, "Queued")));
      const held = runs[3]!;
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      closing.unshift(() => other.end());
      await other.query("BEGIN");
      await other.query("SELECT id FROM task_runs WHERE id = $1 FOR UPDATE", [held.id]);
      const settled = new Set<string>();
      const moves = runs.map((run) =>
        store.transition({ runId: run.id, from: ["Queued"], to: "Running", reason: "slot" }).then((row) => {
          settled.add(run.id);
          return row;
        }),
      );
      // The held run's next move comes while its first still waits for the row: it must go after it.
      const ended = store.transition({ runId: held.id, from: ["Running"], to: "Succeeded", reason: "done" });
      await Promise.all(moves.filter((_, n) => n !== 3));
      expect(settled.has(held.id)).toBe(false);
      for (const run of runs) expect((await store.getRun(run.id))?.state).toBe(run === held ? "Queued" : "Running");
      await other.query("COMMIT");
      expect((await moves[3])?.state).toBe("Running");
      expect((await ended)?.state).toBe("Succeeded");
      expect((await store.transitions(held.id)).map((t) => t.to)).toEqual(["Queued", "Running", "Succeeded"]);
    });

    it("makes each move of a refused statement again alone: only the move at fault fails", async () => {
      const { store, schema } = await fresh();
      const runs = await Promise.all(Array.from({ length: 10 }, () => runIn(store, "Queued")));
      const faulty = runs[6]!.id;
      await server().sql(
        `CREATE FUNCTION ${schema}.refuse_one() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused %', NEW.id; END $$;
       CREATE TRIGGER refuse_one BEFORE UPDATE ON ${schema}.task_runs FOR EACH ROW
         WHEN (NEW.id = '${faulty}' AND NEW.state = 'Running') EXECUTE FUNCTION ${schema}.refuse_one()`,
      );
      const outcomes = await Promise.allSettled(
        runs.map((run) => store.transition({ runId: run.id, from: ["Queued"], to: "Running", reason: "slot" })),
      );
      expect(outcomes.map((o) => o.status)).toEqual(runs.map((run) => (run.id === faulty ? "rejected" : "fulfilled")));
      expect(String((outcomes[6] as PromiseRejectedResult).reason)).toContain(`refused ${faulty}`);
      for (const run of runs) {
        const state = (await store.getRun(run.id))?.state;
        expect(state).toBe(run.id === faulty ? "Queued" : "Running");
        expect(await store.transitions(run.id)).toHaveLength(run.id === faulty ? 1 : 2);
      }
    });

    it("fails each move of a statement whose answer was lost, and does not make them again (they may have committed)", async () => {
      const { store, url } = await fresh();
      const runs = await Promise.all(Array.from({ length: 6 }, () => runIn(store, "Queued")));
      const lost = new Error("Connection terminated unexpectedly");
      const { pool, asked } = recordingPool(url, (what) => (what.includes("jsonb_to_recordset") ? lost : undefined));
      const queue = createTransitionQueue(pool);
      const outcomes = await Promise.allSettled(runs.map((run, n) => queue(toRunning(run, n))));
      expect(outcomes[0]).toMatchObject({ status: "fulfilled", value: { state: "Running" } });
      for (const outcome of outcomes.slice(1)) expect(outcome).toEqual({ status: "rejected", reason: lost });
      expect(asked.filter((a) => a === "errand.move_run")).toEqual([]);
    });
  },
);
