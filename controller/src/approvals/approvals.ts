import type { Logger } from "@errand/channel-sdk";
import { NotFoundError } from "../errors.js";
import type { ApprovalDecision, Approvals, DecideOutcome } from "../runs/approvals-port.js";
import { refusedResult } from "../runs/refused-result.js";
import type { Actor } from "../runs/task-run.js";
import type { Store } from "../store/store.js";

/** Options of {@link createApprovals}. */
export interface ApprovalsOptions {
  store: Store;
  /** `guardrails.approvers`: chat A user ids and console token labels allowed to decide. */
  approvers: readonly string[];
  logger: Logger;
}

/** `cli alice from host-1`: an actor in words, for reasons and logs. */
export function describeActor(actor: Actor): string {
  return `${actor.kind} ${actor.name}${actor.from === undefined ? "" : ` from ${actor.from}`}`;
}

/**
 * {@link Approvals} over the store. The `cli` actor is always allowed: a
 * shell that can open the controller's store is the operator. Every other
 * actor's name must be in `approvers`; a refusal is logged as a warning.
 */
export function createApprovals(options: ApprovalsOptions): Approvals {
  const { store, logger } = options;
  const approvers = new Set(options.approvers);
  const refuse = (outcome: Extract<DecideOutcome, { kind: "refused" }>, runId: string, actor: Actor) => {
    logger.warn("approval decision refused", {
      run_id: runId,
      code: outcome.code,
      actor: describeActor(actor),
      reason: outcome.message,
    });
    return outcome;
  };
  return {
    async decide(runId, decision, actor, reason) {
      if (actor.kind !== "cli" && !approvers.has(actor.name)) {
        const message = `${actor.name} is not an approver of run ${runId}: only the ids in guardrails.approvers may approve or reject`;
        return refuse({ kind: "refused", code: "not_approver", message }, runId, actor);
      }
      const text = decisionReason(decision, actor, reason);
      try {
        const moved = await store.transition({
          runId,
          from: ["AwaitingApproval"],
          to: decision === "approve" ? "Queued" : "Refused",
          reason: text,
          actor,
          ...(decision === "reject" ? { patch: { result: refusedResult(text) } } : {}),
        });
        if (moved) {
          logger.info(decision === "approve" ? "run approved" : "run rejected", { run_id: runId, reason: text });
          return { kind: "decided", run: moved };
        }
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        const message = `no run with id ${runId}; list the runs waiting with \`errand runs --state AwaitingApproval\``;
        return refuse({ kind: "refused", code: "not_found", message }, runId, actor);
      }
      const run = await store.getRun(runId);
      const state = run?.state ?? "gone";
      const message = `run ${runId} is ${state}, not AwaitingApproval: ${run?.reason ?? "it was removed"}`;
      return refuse({ kind: "refused", code: "not_awaiting", message, ...(run ? { run } : {}) }, runId, actor);
    },
  };
}

/** `approved by cli alice: looks fine`. */
function decisionReason(decision: ApprovalDecision, actor: Actor, reason: string | undefined): string {
  const verb = decision === "approve" ? "approved" : "rejected";
  const why = reason === undefined || reason.trim() === "" ? "" : `: ${reason.trim()}`;
  return `${verb} by ${describeActor(actor)}${why}`;
}
