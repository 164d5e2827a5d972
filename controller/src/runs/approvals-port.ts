import type { TaskRun } from "./task-run.js";

export interface Actor {
  kind: "controller" | "cli" | "console" | "chat_a";
  name: string;
  from?: string;
}
export type ApprovalDecision = "approve" | "reject";
export type DecideOutcome =
  | { kind: "decided"; run: TaskRun }
  | { kind: "refused"; code: "not_found" | "not_awaiting" | "not_approver"; message: string; run?: TaskRun };
export interface Approvals {
  decide(runId: string, decision: ApprovalDecision, actor: Actor, reason?: string): Promise<DecideOutcome>;
}
