import type { Actor, TaskRun } from "./task-run.js";

/** What a person decided about a run awaiting approval. */
export type ApprovalDecision = "approve" | "reject";

/**
 * What became of a decision: `decided` (the run moved: Queued when
 * approved, Refused when rejected), or `refused` with why: no such run
 * (`not_found`), the run is not AwaitingApproval any more or never was
 * (`not_awaiting`: decided already, cancelled, timed out), or the actor may
 * not decide (`not_approver`). `message` says it in words for a person.
 */
export type DecideOutcome =
  | { kind: "decided"; run: TaskRun }
  | { kind: "refused"; code: "not_found" | "not_awaiting" | "not_approver"; message: string; run?: TaskRun };

/**
 * Deciding about runs awaiting approval; the CLI, chat A's buttons and the
 * console all go through it. A decision is one atomic store transition out
 * of AwaitingApproval, so of two decisions racing (or one delivered twice)
 * exactly one is `decided` and the others are `refused` with `not_awaiting`.
 */
export interface Approvals {
  decide(runId: string, decision: ApprovalDecision, actor: Actor, reason?: string): Promise<DecideOutcome>;
}

/**
 * The loop's part of approvals, run on each of its polls (and so only on
 * the leader): ends runs whose approval timed out and tells the channels
 * about runs that wait. Must not throw.
 */
export interface ApprovalSweep {
  sweep(): Promise<void>;
}
