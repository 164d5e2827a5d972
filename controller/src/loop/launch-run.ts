import type { Logger, Ticket } from "@errand/channel-sdk";
import type { Engine } from "../engines/engine.js";
import type { ExecutionBackend, RunHandle, RunSpec } from "../execution/execution-backend.js";
import type { Guardrails } from "../runs/guardrails-port.js";
import { refusedResult } from "../runs/refused-result.js";
import type { RunWithTicket, TaskRun } from "../runs/task-run.js";
import type { Store } from "../store/store.js";
import type { LoopMetrics } from "./loop-metrics.js";
import { type ActiveRun, type SuperviseDeps, superviseRun } from "./supervise-run.js";

/** What {@link launchRun} needs from the loop. */
export interface LaunchDeps {
  store: Store;
  backend: ExecutionBackend;
  engines: ReadonlyMap<string, Engine>;
  guardrails: Guardrails;
  /** The run's spec for the backend: prompt and API key of the engine. */
  spec(run: TaskRun, ticket: Ticket, engine: Engine): RunSpec;
  logger: Logger;
  metrics: LoopMetrics;
  supervise: SuperviseDeps;
  now: () => number;
}

/** Ends a run that cannot start (or could not): Refused by the guardrails, or Failed. */
async function refuse(
  item: RunWithTicket,
  active: ActiveRun,
  reason: string,
  to: "Refused" | "Failed",
  deps: LaunchDeps,
  from: "Queued" | "Running" = "Queued",
) {
  const { store, now } = deps;
  const result = refusedResult(reason);
  const stored = await store.transition({ runId: item.run.id, from: [from], to, reason, patch: { result } });
  deps.logger.warn(to === "Refused" ? "run refused" : "run could not start", {
    run_id: item.run.id,
    ticket: `${item.ticket.source}:${item.ticket.id}`,
    reason,
  });
  if (stored === undefined) return;
  // errand_run_duration_seconds measures Running to the end: a run refused or failed while Queued never ran.
  if (from === "Running") deps.metrics.finished(to, (now() - (stored.startedAt ?? now())) / 1000);
  active.events.push({ type: "finished", run: stored, ticket: item.ticket, result });
}

/**
 * Write-ahead: the run is Running in the store before its engine can exist. A controller that dies in between
 * leaves a Running run, which the restart rule resolves, never a Queued one that would start a second engine.
 */
async function recordStart(item: RunWithTicket, engine: Engine, deps: LaunchDeps): Promise<TaskRun | undefined> {
  const { backend } = deps;
  try {
    return await deps.store.transition({
      runId: item.run.id,
      from: ["Queued"],
      to: "Running",
      reason: `started on ${backend.name} with engine ${engine.name}`,
      patch: { backend: backend.name },
    });
  } catch (error) {
    deps.logger.error("could not record the start of a run; it stays queued and starts again later", {
      run_id: item.run.id,
      error,
    });
    throw error;
  }
}

/** Records where the engine runs; the engine is watched all the same when that fails. */
async function recordEngine(
  item: RunWithTicket,
  startedRun: TaskRun,
  handle: RunHandle,
  deps: LaunchDeps,
): Promise<TaskRun> {
  try {
    const branch = handle.branch === undefined ? {} : { branch: handle.branch };
    await deps.store.updateRunning(item.run.id, { logRef: handle.logRef, attachment: handle.attachment, ...branch });
    return { ...startedRun, logRef: handle.logRef, attachment: handle.attachment, ...branch };
  } catch (error) {
    // Only a restart before its end would find no engine recorded (and fail the run).
    deps.logger.error("could not record the engine of a running run", { run_id: item.run.id, error });
    return startedRun;
  }
}

/** Starts a claimed Queued run on the backend, or ends it when it may not or cannot start, then supervises it to its end. */
export async function launchRun(item: RunWithTicket, active: ActiveRun, deps: LaunchDeps): Promise<void> {
  const { backend, logger, now } = deps;
  const verdict = deps.guardrails.admit(item.ticket);
  if (!verdict.allowed) return refuse(item, active, verdict.reason, "Refused", deps);
  const engine = deps.engines.get(item.run.engine);
  if (engine === undefined) {
    return refuse(
      item,
      active,
      `engine "${item.run.engine}" is not configured any more; add it under engines: or retry the run after changing engines.default`,
      "Failed",
      deps,
    );
  }
  const spec = deps.spec(item.run, item.ticket, engine);
  let startedRun = await recordStart(item, engine, deps);
  if (startedRun === undefined) {
    logger.info("run was cancelled before its engine started", { run_id: item.run.id });
    return;
  }
  let handle: RunHandle;
  active.holdProgress();
  try {
    handle = await backend.start(spec, { onEvent: (e) => active.onEvent(e) });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const hint = (error as { hint?: string }).hint;
    return refuse(item, active, hint ? `${message} (${hint})` : message, "Failed", deps, "Running");
  }
  startedRun = await recordEngine(item, startedRun, handle, deps);
  Object.assign(active.run, startedRun);
  deps.metrics.started();
  deps.metrics.startLatency((now() - item.run.createdAt) / 1000);
  logger.info("run started", {
    run_id: item.run.id,
    ticket: `${item.ticket.source}:${item.ticket.id}`,
    engine: engine.name,
    backend: backend.name,
  });
  active.announce({ type: "started", run: startedRun, ticket: item.ticket, engine: engine.name });
  await superviseRun(active, handle, startedRun.startedAt ?? now(), deps.supervise);
}
