import type { TaskResult, Ticket } from "@errand/channel-sdk";
import type { FollowUpContext } from "./follow-up.js";

/**
 * States of a TaskRun. The spec names Running; the others are ours:
 * Queued (stored, waiting for a slot), Refused (a guardrail stopped it
 * before it started, or its approval was refused), the four ends of a run
 * that started, and AwaitingApproval (stored, held until a person approves
 * it: `guardrails.require_approval`). New states are appended: stores and
 * metrics list them in this order.
 */
export const RUN_STATES = [
  "Queued",
  "Running",
  "Succeeded",
  "Failed",
  "TimedOut",
  "Cancelled",
  "Refused",
  "AwaitingApproval",
] as const;

/** One of {@link RUN_STATES}. */
export type RunState = (typeof RUN_STATES)[number];

/** States a run never leaves. */
export const TERMINAL_STATES: ReadonlySet<RunState> = new Set([
  "Succeeded",
  "Failed",
  "TimedOut",
  "Cancelled",
  "Refused",
]);

/** True when `state` is final. */
export function isTerminal(state: RunState): boolean {
  return TERMINAL_STATES.has(state);
}

/** The transitions the store accepts; anything else is a bug. */
export const ALLOWED_TRANSITIONS: Readonly<Record<RunState, readonly RunState[]>> = {
  Queued: ["Running", "Refused", "Cancelled", "Failed"],
  // Back to Queued only when a backend's restart rule re-queues a run it cannot re-attach.
  Running: ["Succeeded", "Failed", "TimedOut", "Cancelled", "Queued"],
  Succeeded: [],
  Failed: [],
  TimedOut: [],
  Cancelled: [],
  Refused: [],
  // Approved → Queued; rejected or timed out → Refused; `errand runs cancel` → Cancelled.
  AwaitingApproval: ["Queued", "Refused", "Cancelled"],
};

/**
 * Who caused a transition, for the run's timeline. `name` is the OS user
 * (cli), the console token's label (console) or the chat A user id
 * (chat_a); `from` is where the action came from (an address or a host).
 */
export interface Actor {
  kind: "controller" | "cli" | "console" | "chat_a";
  name: string;
  from?: string;
}

/** A ticket's identity: the source that produced it and its id there. */
export interface TicketKey {
  source: string;
  id: string;
}

/** One stored state change of a run. */
export interface Transition {
  runId: string;
  /** 1, 2, 3, ... in the order they happened. */
  seq: number;
  /** Undefined for the creation of the run (into Queued or AwaitingApproval). */
  from: RunState | undefined;
  to: RunState;
  /** Milliseconds since the epoch. */
  at: number;
  /** Why, in words a person reads in `errand runs show`. */
  reason: string;
  /** Who caused it; undefined when the controller itself did. */
  actor: Actor | undefined;
}

/** An agent run for one ticket. Attempt 1 comes from intake; `errand runs retry` adds attempts. */
export interface TaskRun {
  /** Stable id, `run_` + 26 lowercase base32 characters (time-ordered). */
  id: string;
  ticket: TicketKey;
  attempt: number;
  state: RunState;
  /** Engine name from `engines`; set when the run was created. */
  engine: string;
  /** Execution backend that ran (or runs) it: `local`, `kubernetes`. */
  backend: string | undefined;
  createdAt: number;
  updatedAt: number;
  startedAt: number | undefined;
  finishedAt: number | undefined;
  /** Reason of the last transition; for a Running run whose cancel was requested, the request's reason. */
  reason: string;
  /** Set once the run ended (and for Refused runs, a failure result naming the guardrail). */
  result: TaskResult | undefined;
  /** Latest cost the engine reported while running, in USD. */
  costUsd: number | undefined;
  /** Where the backend keeps the run's log (a file path for `local`). */
  logRef: string | undefined;
  /**
   * What the backend needs to find the run again after a restart (a pid
   * and its start time, a Job name), as the backend wrote it.
   */
  attachment: Record<string, unknown> | undefined;
  /** Set by `errand runs cancel` while the run is Running; the loop acts on it. */
  cancelRequestedAt: number | undefined;
  /**
   * Who asked first to cancel the run (CLI user, console token label, from where); the Cancelled transition the loop
   * makes later names them. Undefined when nobody asked, or when the controller itself did.
   */
  cancelRequestedBy?: Actor | undefined;
  /** The branch the run works on when the controller prepared a checkout (follow-ups push to it). */
  branch: string | undefined;
  /** For a follow-up run: the run of the same ticket it follows (the one that was newest when it was created). */
  parentRunId?: string | undefined;
  /** The engine's session id (Claude Code's `session_id`), recorded from its output; a follow-up may resume it. */
  sessionId?: string | undefined;
  /** For a follow-up run: the pull request and the review comments it addresses. */
  followUp?: FollowUpContext | undefined;
}

/** A run together with its ticket, as the loop hands it to execution. */
export interface RunWithTicket {
  run: TaskRun;
  ticket: Ticket;
}
