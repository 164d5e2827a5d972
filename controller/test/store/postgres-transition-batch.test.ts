import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import { createTransitionQueue } from "../../src/store/postgres/transition-queue.js";
import type { Store } from "../../src/store/store.js";
import { runIn } from "./conformance/support.js";
import { NEEDS_POSTGRES, postgresRunnable, usePostgresServer } from "./helpers/postgres-server.js";

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

    it("sends the first move alone and those that came meanwhile in one statement", async () => {
      const { store, url } = await fresh();
      const runs = await Promise.all(Array.from({ length: 16 }, () => runIn(store, "Queued")));
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      closing.unshift(() => pool.end());
      const statements: string[] = [];
      const counting = {
        query: (...args: Parameters<pg.Pool["query"]>) => {
          const [text] = args;
          statements.push(typeof text === "string" ? text : (text as { text: string }).text);
          return (pool.query as (...a: unknown[]) => unknown)(...args);
        },
      } as unknown as pg.Pool;
      const queue = createTransitionQueue(counting);
      const alone: string[] = [];
      const moved = await Promise.all(
        runs.map((run, n) =>
          queue(
            {
              b_id: run.id,
              b_from: ["Queued"],
              b_to: "Running",
              b_at: run.createdAt + n,
              b_reason: `slot ${n}`,
              b_starts: true,
              b_ends: false,
              b_backend: "local",
              b_result: null,
              b_cost: null,
              b_log_ref: null,
              b_attachment: null,
              b_actor_kind: null,
              b_actor_name: null,
              b_actor_from: null,
              b_pull_request_url: null,
            },
            // The first move goes alone: here through the store, which the test does not count.
            async () => {
              alone.push(run.id);
              await store.transition({ runId: run.id, from: ["Queued"], to: "Running", reason: `slot ${n}` });
              return undefined;
            },
          ),
        ),
      );
      expect(alone).toEqual([runs[0]!.id]);
      expect(statements.filter((s) => s.includes("jsonb_to_recordset"))).toHaveLength(1);
      expect(moved.slice(1).map((row) => [row?.id, row?.state, row?.reason])).toEqual(
        runs.slice(1).map((run, n) => [run.id, "Running", `slot ${n + 1}`]),
      );
      for (const run of runs.slice(1)) {
        expect((await store.transitions(run.id)).map((t) => [t.seq, t.to])).toEqual([
          [1, "Queued"],
          [2, "Running"],
        ]);
      }
    });

    it("makes each move of a failed statement again alone: only the move at fault fails", async () => {
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
  },
);
