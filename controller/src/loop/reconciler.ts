import type { Logger, Ticket } from "@errand/channel-sdk";
import type { Engine } from "../engines/engine.js";
import type { ExecutionBackend, RunSpec } from "../execution/execution-backend.js";
import type { ApprovalSweep } from "../runs/approvals-port.js";
import type { Guardrails } from "../runs/guardrails-port.js";
import type { TaskRun } from "../runs/task-run.js";
import type { Store } from "../store/store.js";
import { applyCancelRequests } from "./cancel-requests.js";
import { createEndAnnouncer } from "./end-announcer.js";
import { type LaunchDeps, launchRun } from "./launch-run.js";
import type { LoopMetrics } from "./loop-metrics.js";
import type { ObserverDispatch } from "./observer-dispatch.js";
import { createPump } from "./pump.js";
import { recoverRuns } from "./recovery.js";
import { createRunTracker } from "./run-tracker.js";
import { stopWithGrace } from "./shutdown.js";
import type { SuperviseDeps } from "./supervise-run.js";

/** Options of {@link createReconciler}. */
export interface ReconcilerOptions {
  store: Store;
  backend: ExecutionBackend;
  engines: ReadonlyMap<string, Engine>;
  /** Builds the prompt for a ticket with the engine's template; `run` tells a follow-up (its `followUp`) from a first run. */
  prompt(engine: string, ticket: Ticket, run?: TaskRun): string;
  /** The engine's API key from the secret store. */
  apiKey(engine: string): string | undefined;
  guardrails: Guardrails;
  dispatch: ObserverDispatch;
  maxConcurrent: number;
  /** This loop's name in claims: host and pid. */
  owner: string;
  logger: Logger;
  metrics: LoopMetrics;
  /** Expires and announces runs awaiting approval, on each poll; none when no rule holds runs. */
  approvals?: ApprovalSweep;
  /** How often the store is read for work from elsewhere (`errand runs retry/cancel`, cancelled Queued runs to announce); default 1000 ms. */
  pollMs?: number;
  now?: () => number;
}

/** The reconciliation loop: Queued runs in, engine runs out, every step stored. */
export interface Reconciler {
  /** Resolves runs a dead controller left Running, announces Queued runs cancelled meanwhile, then starts taking work. */
  start(): Promise<void>;
  /** New work may be waiting (the intake stored tickets). */
  wake(): void;
  /** Runs executing now. */
  readonly active: number;
  /**
   * Takes no new work, lets running runs finish for `graceMs`, then leaves
   * the rest: detached and still Running when the backend's runs outlive
   * the controller (Kubernetes Jobs, re-attached by the next one), else
   * stopped (recorded Failed: "the controller shut down ...").
   */
  stop(graceMs: number): Promise<void>;
}

/**
 * Creates the loop. Data flows one way: store → loop → backend → observers.
 * The pump claims and launches Queued runs (pump.ts, launch-run.ts), the
 * recovery resolves what a previous controller left (recovery.ts), the
 * shutdown stops with grace (shutdown.ts); the tracker holds the runs.
 */
export function createReconciler(options: ReconcilerOptions): Reconciler {
  const { store, backend, logger } = options;
  const now = options.now ?? Date.now;
  const supervise: SuperviseDeps = { store, guardrails: options.guardrails, logger, metrics: options.metrics, now };
  const announcer = createEndAnnouncer({ store, dispatch: options.dispatch, logger });
  const tracker = createRunTracker({ dispatch: options.dispatch, deps: supervise, logger, onFree: () => pump.wake() });
  const spec = (run: TaskRun, ticket: Ticket, engine: Engine): RunSpec => ({
    run,
    ticket,
    engine,
    prompt: options.prompt(engine.name, ticket, run),
    apiKey: options.apiKey(engine.name),
  });
  const launch: LaunchDeps = {
    store,
    backend,
    engines: options.engines,
    guardrails: options.guardrails,
    spec,
    logger,
    metrics: options.metrics,
    supervise,
    now,
  };
  const pump = createPump({
    store,
    tracker,
    launch: (item, active) => launchRun(item, active, launch),
    maxConcurrent: options.maxConcurrent,
    owner: options.owner,
    logger,
  });
  let poller: NodeJS.Timeout | undefined;

  return {
    get active() {
      return tracker.running.size;
    },
    async start() {
      pump.begin();
      const released = await store.releaseAllClaims();
      if (released > 0) logger.info("released claims left by the previous controller", { runs: released });
      await recoverRuns({ store, backend, engines: options.engines, tracker, spec, logger, supervise });
      // Queued runs cancelled while no controller led are announced now, as the ends the restart rule finds are.
      void announcer.check();
      void options.approvals?.sweep();
      poller = setInterval(() => {
        void applyCancelRequests(store, tracker, logger);
        void announcer.check();
        void options.approvals?.sweep();
        pump.wake();
      }, options.pollMs ?? 1000);
      pump.wake();
    },
    wake: () => pump.wake(),
    async stop(graceMs) {
      pump.halt();
      clearInterval(poller);
      await stopWithGrace(graceMs, { tracker, detaches: backend.detachesOnShutdown === true, logger });
      // What the channels are still being told about ended runs (each call bounded by the notifier's timeout).
      await Promise.allSettled([...tracker.notifying(), announcer.settled()]);
    },
  };
}
