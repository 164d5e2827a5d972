import type { Ticket } from "@errand/channel-sdk";
import type { TaskRun } from "../runs/task-run.js";

/** Where chat A shows a run's approval message: the channel's id and the message's `ts`. */
export interface ApprovalMessageRef {
  channel: string;
  ts: string;
}

/** A decided run whose approval message is to be updated, as {@link Store.takeApprovalMessageUpdates} hands it out. */
export interface ApprovalMessageUpdate extends ApprovalMessageRef {
  run: TaskRun;
  ticket: Ticket;
  /** Attempts at this update so far, this one included (1 on the first). */
  attempt: number;
}

/** What {@link Store.takeApprovalMessageUpdates} takes. */
export interface ApprovalMessageTake {
  /** Most updates taken at once. */
  limit: number;
  /** How long the taker holds each, ms: a taker that dies lets another process try again after it. */
  leaseMs: number;
  /** A message is not taken again once it has had this many attempts. */
  maxAttempts: number;
  /** Only this run's message (chat A's callback on its own message). */
  runId?: string;
}
