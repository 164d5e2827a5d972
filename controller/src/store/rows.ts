import type { TaskResult, Ticket } from "@errand/channel-sdk";
import type { FollowUpContext } from "../runs/follow-up.js";
import type { Actor, RunState, TaskRun, Transition } from "../runs/task-run.js";

/** A row of `task_runs` as both stores return it (PostgreSQL selects the same names and types). */
export interface RunRow {
  id: string;
  source: string;
  ticket_id: string;
  attempt: number;
  state: RunState;
  engine: string;
  backend: string | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
  reason: string;
  result: string | null;
  cost_usd: number | null;
  log_ref: string | null;
  attachment: string | null;
  cancel_requested_at: number | null;
  branch: string | null;
  parent_run_id: string | null;
  session_id: string | null;
  follow_up: string | null;
  cancel_actor_kind: string | null;
  cancel_actor_name: string | null;
  cancel_actor_from: string | null;
}

/** A row of `transitions`. */
export interface TransitionRow {
  run_id: string;
  seq: number;
  from_state: RunState | null;
  to_state: RunState;
  at: number;
  reason: string;
  actor_kind: string | null;
  actor_name: string | null;
  actor_from: string | null;
}

/** The columns of {@link TransitionRow}, in a SELECT. */
export const TRANSITION_COLUMNS = "run_id, seq, from_state, to_state, at, reason, actor_kind, actor_name, actor_from";

/** An actor as the three nullable columns of `transitions` store it. */
export function actorColumns(
  actor: Actor | undefined,
): [kind: string | null, name: string | null, from: string | null] {
  return actor === undefined ? [null, null, null] : [actor.kind, actor.name, actor.from ?? null];
}

const RUN_COLUMN_NAMES = [
  "id",
  "source",
  "ticket_id",
  "attempt",
  "state",
  "engine",
  "backend",
  "created_at",
  "updated_at",
  "started_at",
  "finished_at",
  "reason",
  "result",
  "cost_usd",
  "log_ref",
  "attachment",
  "cancel_requested_at",
  "branch",
  "parent_run_id",
  "session_id",
  "follow_up",
  "cancel_actor_kind",
  "cancel_actor_name",
  "cancel_actor_from",
] as const;

/** The columns of {@link RunRow}, qualified by the alias `r` (for SELECTs that join another table). */
export const RUN_COLUMNS = RUN_COLUMN_NAMES.map((name) => `r.${name}`).join(", ");
/** The columns of {@link RunRow}, unqualified (for RETURNING). */
export const RUN_COLUMNS_BARE = RUN_COLUMN_NAMES.join(", ");

const opt = <T>(value: T | null): T | undefined => (value === null ? undefined : value);
const json = <T>(text: string | null): T | undefined => (text === null ? undefined : (JSON.parse(text) as T));

/** The TaskRun a row holds. */
export function toTaskRun(row: RunRow): TaskRun {
  return {
    id: row.id,
    ticket: { source: row.source, id: row.ticket_id },
    attempt: row.attempt,
    state: row.state,
    engine: row.engine,
    backend: opt(row.backend),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: opt(row.started_at),
    finishedAt: opt(row.finished_at),
    reason: row.reason,
    result: json<TaskResult>(row.result),
    costUsd: opt(row.cost_usd),
    logRef: opt(row.log_ref),
    attachment: json<Record<string, unknown>>(row.attachment),
    cancelRequestedAt: opt(row.cancel_requested_at),
    branch: opt(row.branch),
    parentRunId: opt(row.parent_run_id),
    sessionId: opt(row.session_id),
    followUp: json<FollowUpContext>(row.follow_up),
    cancelRequestedBy: toActor(row.cancel_actor_kind, row.cancel_actor_name, row.cancel_actor_from),
  };
}

/** The actor three nullable columns hold (a transition's, or a cancel request's); undefined: the controller. */
export function toActor(kind: string | null, name: string | null, from: string | null): Actor | undefined {
  if (kind === null) return undefined;
  return { kind: kind as Actor["kind"], name: name ?? "", ...(from === null ? {} : { from }) };
}

/**
 * Who a transition names: the request's actor, else, for the Cancelled transition the loop makes after a cancel
 * request, whoever asked (stored with the request).
 */
export function transitionActor(req: { to: RunState; actor?: Actor | undefined }, row: RunRow): Actor | undefined {
  if (req.actor !== undefined || req.to !== "Cancelled") return req.actor;
  return toActor(row.cancel_actor_kind, row.cancel_actor_name, row.cancel_actor_from);
}

/** The Transition a row holds. */
export function toTransition(row: TransitionRow): Transition {
  return {
    runId: row.run_id,
    seq: row.seq,
    from: opt(row.from_state),
    to: row.to_state,
    at: row.at,
    reason: row.reason,
    actor: toActor(row.actor_kind, row.actor_name, row.actor_from),
  };
}

/** The Ticket stored as JSON. */
export function toTicket(payload: string): Ticket {
  return JSON.parse(payload) as Ticket;
}

/** JSON text of a patch field, null when the field is not given (the column keeps its value). */
export function jsonOrNull(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
