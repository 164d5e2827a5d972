import type { Statement } from "better-sqlite3";
import { RUN_STATES } from "../../runs/task-run.js";
import { requireText } from "../input-checks.js";
import { RUN_COLUMNS, type RunRow, toTaskRun, toTicket, toTransition } from "../rows.js";
import { type RunListQuery, runListQuery, runListSql } from "../run-list-query.js";
import type { RunCounts, RunFilter } from "../store.js";
import type { SqliteContext, SyncOps } from "./statements.js";

/** Reads of runs, tickets and transitions on SQLite. An empty `states` filter is no filter. */
export function createQueryOps({
  db,
  st,
}: SqliteContext): SyncOps<"getRun" | "getTicket" | "listRuns" | "transitions" | "countRuns" | "cancelRequested"> {
  // One statement per shape of filter, built on first use.
  const listStatements = new Map<string, Statement<unknown[], RunRow>>();
  const listStatement = (query: RunListQuery) => {
    let statement = listStatements.get(query.shape);
    if (!statement) {
      statement = db.prepare<unknown[], RunRow>(runListSql(query, RUN_COLUMNS, () => "?"));
      listStatements.set(query.shape, statement);
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
      const query = runListQuery(filter, () => "?");
      return listStatement(query)
        .all(...query.params)
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
