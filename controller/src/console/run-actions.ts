import type { Logger } from "@errand/channel-sdk";
import { ConflictError, NotFoundError } from "../errors.js";
import type { ApprovalDecision, Approvals } from "../runs/approvals-port.js";
import type { Actor, TaskRun } from "../runs/task-run.js";
import type { Store } from "../store/store.js";
import type { Caller } from "./console-auth.js";
import { type ConsoleRefusal, refusal } from "./console-refusal.js";
import { AWAITING_APPROVAL } from "./run-actions-form.js";

/** What an operator may do to a run from the console. */
export type RunAction = "cancel" | "retry" | "approve" | "reject";

/** What an action did, as the run's page then says it (a fixed key, so that a link cannot make the page say anything). */
export const ACTION_NOTICES = {
  cancelled: "Cancelled.",
  stopping: "Cancel requested: the run is stopping.",
  retried: "Retried: this is the new attempt.",
  approved: "Approved.",
  rejected: "Rejected.",
} as const;

/** The run to show after an action, and what happened; or why the action was refused. */
export type ActionOutcome =
  | { ok: true; run: TaskRun; notice: keyof typeof ACTION_NOTICES }
  | { ok: false; refusal: ConsoleRefusal };

/** What the actions need: the store, the approvals port (wired by the approvals flow), the loop's wake-up. */
export interface ActionDeps {
  store: Store;
  approvals?: Approvals | undefined;
  /** Tells the loop there is work (a retried run) without waiting for its next poll. */
  wake?: (() => void) | undefined;
  logger: Logger;
}

/**
 * Applies `action` to the run as `caller` (who already proved they hold the token). Who and from where go into the
 * run's timeline as the transition's actor (for a Running run, on the Cancelled transition the loop makes later),
 * and the cancel's and retry's reasons name them too.
 */
export async function applyRunAction(
  deps: ActionDeps,
  runId: string,
  action: RunAction,
  caller: Caller,
): Promise<ActionOutcome> {
  const who = `${caller.label ?? "unknown"} (${caller.from})`;
  try {
    const outcome = await act(deps, runId, action, caller, who);
    if (outcome.ok) deps.logger.info("console action", { action, run: runId, by: caller.label, from: caller.from });
    return outcome;
  } catch (error) {
    if (error instanceof NotFoundError) {
      return {
        ok: false,
        refusal: refusal(404, "console_run_not_found", error.message, "pick a run from /console/runs"),
      };
    }
    if (error instanceof ConflictError) {
      return {
        ok: false,
        refusal: refusal(409, "console_action_conflict", error.message, error.hint ?? "reload the run's page"),
      };
    }
    throw error;
  }
}

async function act(
  deps: ActionDeps,
  runId: string,
  action: RunAction,
  caller: Caller,
  who: string,
): Promise<ActionOutcome> {
  const { store } = deps;
  const actor = consoleActor(caller);
  if (action === "cancel") {
    const run = await store.requestCancel(runId, `cancelled from the console by ${who}`, actor);
    deps.wake?.();
    return {
      ok: true,
      run,
      notice: run.state === "Cancelled" ? "cancelled" : "stopping",
    };
  }
  if (action === "retry") {
    const run = await store.retry(runId, `retried from the console by ${who}`, actor);
    deps.wake?.();
    return { ok: true, run, notice: "retried" };
  }
  return decide(deps, runId, action, caller);
}

/** The caller as the run's timeline stores who acted: the token's label, and the address the request came from. */
function consoleActor(caller: Caller): Actor {
  return { kind: "console", name: caller.label ?? "unknown", from: caller.from };
}

async function decide(
  deps: ActionDeps,
  runId: string,
  decision: ApprovalDecision,
  caller: Caller,
): Promise<ActionOutcome> {
  if (deps.approvals === undefined) {
    return {
      ok: false,
      refusal: refusal(
        409,
        "console_approvals_off",
        `this controller has no approvals flow, so run ${runId} cannot be ${decision}d`,
        "turn on guardrails.require_approval so that runs wait for an approval",
      ),
    };
  }
  const run = await deps.store.getRun(runId);
  if (run === undefined) throw new NotFoundError(`no run ${runId}`);
  if ((run.state as string) !== AWAITING_APPROVAL) {
    throw new ConflictError(`run ${runId} is ${run.state}, not waiting for an approval`, {
      hint: "only a run in AwaitingApproval can be approved or rejected",
    });
  }
  const outcome = await deps.approvals.decide(runId, decision, consoleActor(caller));
  if (outcome.kind === "decided") {
    deps.wake?.();
    return { ok: true, run: outcome.run, notice: decision === "approve" ? "approved" : "rejected" };
  }
  const status = outcome.code === "not_found" ? 404 : outcome.code === "not_approver" ? 403 : 409;
  return {
    ok: false,
    refusal: refusal(status, `console_${outcome.code}`, outcome.message, "reload the run's page to see its state"),
  };
}
