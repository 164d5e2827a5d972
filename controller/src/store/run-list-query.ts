import { StoreError } from "../errors.js";
import { RUN_STATES, type RunState } from "../runs/task-run.js";
import { requireCount, requireText, requireTime } from "./input-checks.js";
import type { RunFilter } from "./store.js";

/** Default number of runs {@link Store.listRuns} returns. */
const DEFAULT_LIST_LIMIT = 100;

/** A run filter checked and turned into SQL conditions, for either store. */
export interface RunListQuery {
  /** Conditions on `task_runs` (aliased `r`), joined with AND; empty for no filter. */
  where: string[];
  /** The conditions' parameters in order, then the limit. */
  params: unknown[];
  /** A key naming the statement's shape: equal keys give the same SQL (SQLite caches its statements by it). */
  shape: string;
}

/**
 * Checks `filter` and builds its conditions; `mark(n)` writes the n-th parameter's placeholder (`?` for SQLite,
 * `$n` for PostgreSQL). An empty `states` filter is no filter. Every condition has an index that ends in
 * `(created_at, id)`, so the newest-first order and the `before` cursor stay on the index (a page costs the same
 * at any depth).
 */
export function runListQuery(filter: RunFilter, mark: (n: number) => string): RunListQuery {
  const where: string[] = [];
  const params: unknown[] = [];
  const shape: string[] = [];
  const add = (condition: (...marks: string[]) => string, ...values: unknown[]) => {
    const marks = values.map((value) => {
      params.push(value);
      return mark(params.length);
    });
    where.push(condition(...marks));
  };
  const states = checkedStates(filter.states);
  if (states.length > 0) {
    add((...m) => `r.state IN (${m.join(", ")})`, ...states);
    shape.push(`states${states.length}`);
  }
  if (filter.ticket) {
    const { source, id } = filter.ticket;
    add(
      (s, i) => `r.source = ${s} AND r.ticket_id = ${i}`,
      requireText(source, "ticket source"),
      requireText(id, "ticket id"),
    );
    shape.push("ticket");
  }
  if (filter.source !== undefined) {
    add((s) => `r.source = ${s}`, requireText(filter.source, "source filter"));
    shape.push("source");
  }
  if (filter.repo !== undefined) {
    add((u) => `r.repo_url = ${u}`, requireText(filter.repo, "repository filter"));
    shape.push("repo");
  }
  if (filter.before !== undefined) {
    const { createdAt, id } = filter.before;
    add(
      (c, i) => `(r.created_at, r.id) < (${c}, ${i})`,
      requireTime(createdAt, "cursor time"),
      requireText(id, "cursor id"),
    );
    shape.push("before");
  }
  params.push(filter.limit === undefined ? DEFAULT_LIST_LIMIT : requireCount(filter.limit, "list limit"));
  return { where, params, shape: shape.join(",") };
}

/** The list's SQL: `columns` of the filtered runs, newest first, at most the limit (the last parameter). */
export function runListSql(query: RunListQuery, columns: string, mark: (n: number) => string): string {
  const clause = query.where.length > 0 ? `WHERE ${query.where.join(" AND ")}` : "";
  return `SELECT ${columns} FROM task_runs r ${clause} ORDER BY r.created_at DESC, r.id DESC LIMIT ${mark(query.params.length)}`;
}

function checkedStates(states: readonly RunState[] | undefined): RunState[] {
  const unique = [...new Set(states ?? [])];
  for (const state of unique) {
    if (!RUN_STATES.includes(state)) {
      throw new StoreError(`unknown run state "${String(state)}" in the run filter`, {
        hint: `use one of ${RUN_STATES.join(", ")}`,
      });
    }
  }
  return unique;
}
