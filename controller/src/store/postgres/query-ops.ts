import { RUN_STATES, type RunState } from "../../runs/task-run.js";
import { requireText } from "../input-checks.js";
import {
  RUN_COLUMNS,
  RUN_COLUMNS_BARE,
  type RunRow,
  TRANSITION_COLUMNS,
  type TransitionRow,
  toTaskRun,
  toTicket,
  toTransition,
} from "../rows.js";
import { runListQuery, runListSql } from "../run-list-query.js";
import type { RunCounts, RunFilter } from "../store.js";
import type { PostgresContext, StoreOps } from "./postgres-context.js";

/** Reads of runs, tickets and transitions on PostgreSQL. An empty `states` filter is no filter. */
export function createQueryOps({
  pool,
}: PostgresContext): StoreOps<"getRun" | "getTicket" | "listRuns" | "transitions" | "countRuns" | "cancelRequested"> {
  return {
    async getRun(runId) {
      const { rows } = await pool.query<RunRow>(`SELECT ${RUN_COLUMNS_BARE} FROM task_runs WHERE id = $1`, [
        requireText(runId, "run id"),
      ]);
      return rows[0] && toTaskRun(rows[0]);
    },
    async getTicket(key) {
      const params = [requireText(key.source, "ticket source"), requireText(key.id, "ticket id")];
      const { rows } = await pool.query<{ payload: string }>(
        "SELECT payload FROM tickets WHERE source = $1 AND id = $2",
        params,
      );
      return rows[0] && toTicket(rows[0].payload);
    },
    async listRuns(filter: RunFilter = {}) {
      const mark = (n: number) => `$${n}`;
      const query = runListQuery(filter, mark);
      const { rows } = await pool.query<RunRow>(runListSql(query, RUN_COLUMNS, mark), query.params);
      return rows.map(toTaskRun);
    },
    async transitions(runId) {
      const { rows } = await pool.query<TransitionRow>(
        `SELECT ${TRANSITION_COLUMNS} FROM transitions WHERE run_id = $1 ORDER BY seq`,
        [requireText(runId, "run id")],
      );
      return rows.map(toTransition);
    },
    async countRuns() {
      const counts = Object.fromEntries(RUN_STATES.map((state) => [state, 0])) as RunCounts;
      const { rows } = await pool.query<{ state: RunState; n: number }>(
        "SELECT state, COUNT(*) AS n FROM task_runs GROUP BY state",
      );
      for (const row of rows) counts[row.state] = row.n;
      return counts;
    },
    async cancelRequested() {
      const { rows } = await pool.query<RunRow>(
        `SELECT ${RUN_COLUMNS_BARE} FROM task_runs WHERE state = 'Running' AND cancel_requested_at IS NOT NULL ORDER BY created_at, id`,
      );
      return rows.map(toTaskRun);
    },
  };
}
