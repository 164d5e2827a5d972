import type { Statement } from "better-sqlite3";
import { StoreError } from "../../errors.js";
import { RUN_STATES, type RunState } from "../../runs/task-run.js";
import { requireCount, requireText } from "../input-checks.js";
import { RUN_COLUMNS, type RunRow, toTaskRun, toTicket, toTransition } from "../rows.js";
import type { RunCounts, RunFilter } from "../store.js";
import type { SqliteContext, SyncOps } from "./statements.js";

/** Default number of runs {@link Store.listRuns} returns. */
const DEFAULT_LIST_LIMIT = 100;

/** Reads of runs, tickets and transitions on SQLite. An empty `states` filter is no filter. */
export function createQueryOps({
  db,
  st,
}: SqliteContext): SyncOps<"getRun" | "getTicket" | "listRuns" | "transitions" | "countRuns" | "cancelRequested"> {
  // One statement per shape of filter (with or without ticket, number of states), built on first use.
  const listStatements = new Map<string, Statement<unknown[], RunRow>>();
  const listStatement = (states: number, byTicket: boolean) => {
    const shape = `${states}:${byTicket}`;
    let statement = listStatements.get(shape);
    if (!statement) {
      const where: string[] = [];
      if (states > 0) where.push(`r.state IN (${Array(states).fill("?").join(", ")})`);
      if (byTicket) where.push("r.source = ? AND r.ticket_id = ?");
      const clause = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
      statement = db.prepare<unknown[], RunRow>(
        `SELECT ${RUN_COLUMNS} FROM task_runs r ${clause} ORDER BY r.created_at DESC, r.id DESC LIMIT ?`,
      );
      listStatements.set(shape, statement);
    }
    return statement;
  };

  return {
    getRun(runId) {
      const row = st.getRun.get(requireText(runId, "run id"));
      return row && toTaskRun(row);
    },
    getTicket(key) {
      const row = st.getTicket.get(requireText(key.source, "ticket source"), requireText(key.id, "ticket id"));
      return row && toTicket(row.payload);
    },
    listRuns(filter: RunFilter = {}) {
      const states: readonly RunState[] = [...new Set(filter.states ?? [])];
      for (const state of states) {
        if (!RUN_STATES.includes(state)) {
          throw new StoreError(`unknown run state "${String(state)}" in the run filter`, {
            hint: `use one of ${RUN_STATES.join(", ")}`,
          });
        }
      }
      const limit = filter.limit === undefined ? DEFAULT_LIST_LIMIT : requireCount(filter.limit, "list limit");
      const params: unknown[] = [...states];
      if (filter.ticket)
        params.push(requireText(filter.ticket.source, "ticket source"), requireText(filter.ticket.id, "ticket id"));
      params.push(limit);
      return listStatement(states.length, filter.ticket !== undefined)
        .all(...params)
        .map(toTaskRun);
    },
    transitions(runId) {
      return st.history.all(requireText(runId, "run id")).map(toTransition);
    },
    countRuns() {
      const counts = Object.fromEntries(RUN_STATES.map((state) => [state, 0])) as RunCounts;
      for (const row of st.countRuns.all()) counts[row.state] = row.n;
      return counts;
    },
    cancelRequested() {
      return st.cancelRequested.all().map(toTaskRun);
    },
  };
}
