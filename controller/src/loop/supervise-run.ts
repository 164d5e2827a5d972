import type { Logger, Ticket } from "@errand/channel-sdk";
import type { EngineEvent } from "../engines/engine.js";
import type { RunHandle, StopReason } from "../execution/execution-backend.js";
import type { Guardrails } from "../runs/guardrails-port.js";
import type { RunEvent } from "../runs/run-event.js";
import type { TaskRun } from "../runs/task-run.js";
import type { Store } from "../store/store.js";
import type { EventChain } from "./event-chain.js";
import { finalState, type StopContext } from "./final-state.js";
import type { LoopMetrics } from "./loop-metrics.js";

/** Cost updates are written at most this often; the guardrail acts on every one at once. */
const COST_WRITE_INTERVAL_MS = 2_000;

/** One Running run as the loop holds it. */
export interface ActiveRun {
  readonly run: TaskRun;
  readonly ticket: Ticket;
  /** Set once the backend started it. */
  handle: RunHandle | undefined;
  readonly events: EventChain;
  readonly stop: StopContext;
  /** Stops it (idempotent); the reason decides the final state. Before the handle exists, it stops once attached. */
  halt(reason: StopReason): void;
  /** The first reason it was halted for. */
  readonly haltedFor: StopReason | undefined;
  /**
   * The controller is shutting down: a run whose backend can detach it (a
   * Kubernetes Job) is left running, and Running in the store, for the next
   * controller; any other is halted for "shutdown". Before the handle
   * exists, this happens once it is attached.
   */
  leave(): void;
  /** Settles once the final state is stored (`finished` may still be on its way to the observers). */
  finished: Promise<void>;
  /** True once {@link ActiveRun.leave} was called and the run was not halted. */
  readonly leaving: boolean;
  /** Engine events before the handle exists (kept for the first ones of a fast engine). */
  onEvent(event: EngineEvent): void;
  /** Holds the engine's progress until {@link ActiveRun.announce}: channels hear "started" before anything else. */
  holdProgress(): void;
  /** Queues the run's `started` event, then the latest progress held back for it. */
  announce(started: RunEvent): void;
}

/** What {@link superviseRun} needs from the loop. */
export interface SuperviseDeps {
  store: Store;
  guardrails: Guardrails;
  logger: Logger;
  metrics: LoopMetrics;
  now: () => number;
}

/** Creates the loop's record of a run about to start; events that arrive before `attach` are handled too. */
export function createActiveRun(run: TaskRun, ticket: Ticket, events: EventChain, deps: SuperviseDeps): ActiveRun {
  let lastCostWrite = 0;
  let halted: StopReason | undefined;
  let leaving = false;
  let holding = false;
  let held: RunEvent | undefined;
  const active: ActiveRun = {
    run,
    ticket,
    handle: undefined,
    events,
    stop: { cancelReason: undefined, costUsd: undefined, shutdownReason: undefined, costLimitPassed: false },
    finished: Promise.resolve(),
    get haltedFor() {
      return halted;
    },
    halt(reason) {
      if (halted !== undefined) return;
      halted = reason;
      void active.handle?.stop(reason);
    },
    leave() {
      if (halted !== undefined || leaving) return;
      if (active.handle !== undefined && active.handle.detach === undefined) return active.halt("shutdown");
      leaving = true;
      active.handle?.detach?.();
    },
    get leaving() {
      return leaving;
    },
    holdProgress() {
      holding = true;
    },
    announce(started) {
      active.events.push(started);
      holding = false;
      if (held !== undefined) active.events.progress(held);
      held = undefined;
    },
    onEvent(event) {
      if (event.kind === "progress") {
        const progress: RunEvent = { type: "progress", run: active.run, ticket, message: event.text };
        // An engine's output can arrive before its start is recorded (a fast engine, a busy loop).
        if (holding) held = progress;
        else active.events.progress(progress);
      } else if (event.kind === "session") {
        deps.store
          .recordSession(run.id, event.id)
          .catch((error: unknown) => deps.logger.warn("could not store the run's session", { run_id: run.id, error }));
      } else if (event.kind === "cost") {
        active.stop.costUsd = event.usd;
        const at = deps.now();
        if (at - lastCostWrite >= COST_WRITE_INTERVAL_MS) {
          lastCostWrite = at;
          deps.store
            .updateRunning(run.id, { costUsd: event.usd })
            .catch((error: unknown) => deps.logger.warn("could not store the run's cost", { run_id: run.id, error }));
        }
        // A final cost comes once the engine has finished: stopping it then would only lose its work.
        if (event.final !== true && deps.guardrails.overCost(event.usd)) {
          deps.logger.warn("run passed the cost limit; stopping it", {
            run_id: run.id,
            cost_usd: event.usd,
            max_cost_usd: deps.guardrails.maxCostUsd,
          });
          active.stop.costLimitPassed = true;
          active.halt("cost");
        }
      }
    },
  };
  return active;
}

/**
 * Watches a Running run to its end: the duration guardrail, then the final
 * transition with its result; the `finished` event is queued, not awaited. `startedAt` is when
 * the run became Running (for a re-attached run, its stored start).
 */
export async function superviseRun(
  active: ActiveRun,
  handle: RunHandle,
  startedAt: number,
  deps: SuperviseDeps,
): Promise<void> {
  active.handle = handle;
  if (active.haltedFor !== undefined) void handle.stop(active.haltedFor);
  else if (active.leaving) {
    if (handle.detach) handle.detach();
    else active.halt("shutdown");
  }
  const remaining = Math.max(0, deps.guardrails.maxDurationMs - (deps.now() - startedAt));
  const timer = setTimeout(() => active.halt("timeout"), remaining);
  const outcome = await handle.done;
  clearTimeout(timer);
  if (outcome.detached) {
    deps.logger.info("run left running for the next controller", { run_id: active.run.id });
    return;
  }
  const end = finalState(outcome, deps.guardrails, active.stop);
  let stored: TaskRun | undefined;
  try {
    stored = await deps.store.transition({
      runId: active.run.id,
      from: ["Running"],
      to: end.state,
      reason: end.reason,
      patch: { result: end.result, ...(end.result.costUsd === undefined ? {} : { costUsd: end.result.costUsd }) },
    });
  } catch (error) {
    deps.logger.error("could not store the end of a run; it stays Running until the next start resolves it", {
      run_id: active.run.id,
      state: end.state,
      error,
    });
  }
  if (stored === undefined) {
    deps.logger.error("run was no longer Running when it ended", { run_id: active.run.id, state: end.state });
    stored = { ...active.run, state: end.state, reason: end.reason, result: end.result };
  }
  deps.metrics.finished(end.state, (deps.now() - startedAt) / 1000);
  deps.logger.info("run ended", {
    run_id: active.run.id,
    state: end.state,
    reason: end.reason,
    cost_usd: end.result.costUsd,
  });
  active.events.push({ type: "finished", run: stored, ticket: active.ticket, result: end.result });
}
