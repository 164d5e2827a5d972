import type { Logger, Ticket } from "@errand/channel-sdk";
import type { Engine } from "../engines/engine.js";
import type { ExecutionBackend, RunSpec } from "../execution/execution-backend.js";
import { refusedResult } from "../runs/refused-result.js";
import type { TaskRun } from "../runs/task-run.js";
import type { Store } from "../store/store.js";
import type { RunTracker } from "./run-tracker.js";
import { type ActiveRun, type SuperviseDeps, superviseRun } from "./supervise-run.js";

/** What {@link recoverRuns} needs from the loop. */
export interface RecoveryDeps {
  store: Store;
  backend: ExecutionBackend;
  engines: ReadonlyMap<string, Engine>;
  tracker: RunTracker;
  /** The run's spec for the backend: prompt and API key of the engine. */
  spec(run: TaskRun, ticket: Ticket, engine: Engine): RunSpec;
  logger: Logger;
  supervise: SuperviseDeps;
}

/**
 * The restart rule: every run a previous controller left Running is
 * re-attached, queued again or failed, as the backend finds its engine.
 * A run whose ticket or engine is gone fails at once.
 */
export async function recoverRuns(deps: RecoveryDeps): Promise<void> {
  const { store } = deps;
  const left = await store.listRuns({ states: ["Running"], limit: 100_000 });
  for (const run of left) {
    const ticket = await store.getTicket(run.ticket);
    const engine = deps.engines.get(run.engine);
    if (ticket === undefined || engine === undefined) {
      const reason = `controller restarted while the run was running; ${ticket === undefined ? "its ticket is missing" : `engine "${run.engine}" is not configured any more`}`;
      await store.transition({
        runId: run.id,
        from: ["Running"],
        to: "Failed",
        reason,
        patch: { result: refusedResult(reason) },
      });
      continue;
    }
    const spec = deps.spec(run, ticket, engine);
    deps.tracker.track({ run, ticket }, (active) => recoverOne(run, ticket, spec, active, deps));
  }
}

/** Acts on the backend's plan for one run left Running. */
async function recoverOne(
  run: TaskRun,
  ticket: Ticket,
  spec: RunSpec,
  active: ActiveRun,
  deps: RecoveryDeps,
): Promise<void> {
  const { store, logger } = deps;
  const plan = await deps.backend.recover(run, { onEvent: (e) => active.onEvent(e) }, spec);
  if (plan.action === "reattach") {
    logger.info("re-attached a run left running by the previous controller", { run_id: run.id });
    await superviseRun(active, plan.handle, run.startedAt ?? deps.supervise.now(), deps.supervise);
    return;
  }
  if (plan.action === "requeue") {
    await store.transition({ runId: run.id, from: ["Running"], to: "Queued", reason: plan.reason });
    logger.warn("run left running by the previous controller queued again", { run_id: run.id, reason: plan.reason });
    return;
  }
  const result = refusedResult(plan.reason);
  const stored = await store.transition({
    runId: run.id,
    from: ["Running"],
    to: "Failed",
    reason: plan.reason,
    patch: { result },
  });
  logger.warn("run left running by the previous controller resolved", {
    run_id: run.id,
    state: "Failed",
    reason: plan.reason,
  });
  if (stored !== undefined) active.events.push({ type: "finished", run: stored, ticket, result });
}
