import type { Logger, Ticket } from "@errand/channel-sdk";
import type { Engine } from "../engines/engine.js";
import type { ExecutionBackend, RunSpec } from "../execution/execution-backend.js";
import { type Guardrails, refusedResult } from "../guardrails/guardrails.js";
import type { RunWithTicket, TaskRun } from "../runs/task-run.js";
import type { Store } from "../store/store.js";
import { createEndAnnouncer } from "./end-announcer.js";
import { EventChain } from "./event-chain.js";
import type { LoopMetrics } from "./loop-metrics.js";
import type { ObserverDispatch } from "./observer-dispatch.js";
import { type ActiveRun, createActiveRun, type SuperviseDeps, superviseRun } from "./supervise-run.js";

/** Options of {@link createReconciler}. */
export interface ReconcilerOptions {
  store: Store;
  backend: ExecutionBackend;
  engines: ReadonlyMap<string, Engine>;
  /** Builds the prompt for a ticket with the engine's template. */
  prompt(engine: string, ticket: Ticket): string;
  /** The engine's API key from the secret store. */
  apiKey(engine: string): string | undefined;
  guardrails: Guardrails;
  dispatch: ObserverDispatch;
  maxConcurrent: number;
  /** This loop's name in claims: host and pid. */
  owner: string;
  logger: Logger;
  metrics: LoopMetrics;
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

const LEASE_MS = 5 * 60_000;

/** Creates the loop. Data flows one way: store → loop → backend → observers. */
export function createReconciler(options: ReconcilerOptions): Reconciler {
  const { store, backend, logger } = options;
  const now = options.now ?? Date.now;
  const running = new Map<string, ActiveRun>();
  /** Event deliveries of runs that ended; each is bounded by the observers' timeout. */
  const notifying = new Set<Promise<void>>();
  const deps: SuperviseDeps = { store, guardrails: options.guardrails, logger, metrics: options.metrics, now };
  const announcer = createEndAnnouncer({ store, dispatch: options.dispatch, logger });
  let stopping = false;
  let begun = false;
  let pumping = false;
  let again = false;
  let poller: NodeJS.Timeout | undefined;

  const chainFor = () => new EventChain(options.dispatch.targets);

  const refuse = async (item: RunWithTicket, active: ActiveRun, reason: string, to: "Refused" | "Failed", from: "Queued" | "Running" = "Queued") => {
    const result = refusedResult(reason);
    const stored = await store.transition({ runId: item.run.id, from: [from], to, reason, patch: { result } });
    logger.warn(to === "Refused" ? "run refused" : "run could not start", { run_id: item.run.id, ticket: `${item.ticket.source}:${item.ticket.id}`, reason });
    if (stored === undefined) return;
    // errand_run_duration_seconds measures Running to the end: a run refused or failed while Queued never ran.
    if (from === "Running") options.metrics.finished(to, (now() - (stored.startedAt ?? now())) / 1000);
    active.events.push({ type: "finished", run: stored, ticket: item.ticket, result });
  };

  const launch = async (item: RunWithTicket, active: ActiveRun) => {
    const verdict = options.guardrails.admit(item.ticket);
    if (!verdict.allowed) return refuse(item, active, verdict.reason, "Refused");
    const engine = options.engines.get(item.run.engine);
    if (engine === undefined) {
      return refuse(item, active, `engine "${item.run.engine}" is not configured any more; add it under engines: or retry the run after changing engines.default`, "Failed");
    }
    const spec: RunSpec = { run: item.run, ticket: item.ticket, engine, prompt: options.prompt(engine.name, item.ticket), apiKey: options.apiKey(engine.name) };
    // Write-ahead: the run is Running in the store before its engine can exist. A controller that dies in between
    // leaves a Running run, which the restart rule resolves, never a Queued one that would start a second engine.
    let startedRun: TaskRun | undefined;
    try {
      startedRun = await store.transition({
        runId: item.run.id,
        from: ["Queued"],
        to: "Running",
        reason: `started on ${backend.name} with engine ${engine.name}`,
        patch: { backend: backend.name },
      });
    } catch (error) {
      logger.error("could not record the start of a run; it stays queued and starts again later", { run_id: item.run.id, error });
      throw error;
    }
    if (startedRun === undefined) {
      logger.info("run was cancelled before its engine started", { run_id: item.run.id });
      return;
    }
    let handle;
    active.holdProgress();
    try {
      handle = await backend.start(spec, { onEvent: (e) => active.onEvent(e) });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const hint = (error as { hint?: string }).hint;
      return refuse(item, active, hint ? `${message} (${hint})` : message, "Failed", "Running");
    }
    try {
      await store.updateRunning(item.run.id, { logRef: handle.logRef, attachment: handle.attachment });
      startedRun = { ...startedRun, logRef: handle.logRef, attachment: handle.attachment };
    } catch (error) {
      // The engine is watched all the same; only a restart before its end would find no engine recorded (and fail the run).
      logger.error("could not record the engine of a running run", { run_id: item.run.id, error });
    }
    Object.assign(active.run, startedRun);
    options.metrics.started();
    options.metrics.startLatency((now() - item.run.createdAt) / 1000);
    logger.info("run started", { run_id: item.run.id, ticket: `${item.ticket.source}:${item.ticket.id}`, engine: engine.name, backend: backend.name });
    active.announce({ type: "started", run: startedRun, ticket: item.ticket, engine: engine.name });
    await superviseRun(active, handle, startedRun.startedAt ?? now(), deps);
  };

  const track = (item: RunWithTicket, body: (active: ActiveRun) => Promise<void>) => {
    const active = createActiveRun(item.run, item.ticket, chainFor(), deps);
    running.set(item.run.id, active);
    active.finished = body(active)
      .catch((error: unknown) => logger.error("run failed inside the loop", { run_id: item.run.id, error }))
      .finally(() => {
        // The slot is free once the end is stored: a slow channel delays its own messages, never the next run.
        running.delete(item.run.id);
        const delivering = active.events.idle();
        notifying.add(delivering);
        void delivering.finally(() => notifying.delete(delivering));
        wake();
      });
  };

  const pump = async () => {
    pumping = true;
    try {
      do {
        again = false;
        const free = options.maxConcurrent - running.size;
        if (free <= 0 || stopping) break;
        const claimed = await store.claimQueued(options.owner, free, LEASE_MS);
        for (const item of claimed) if (!running.has(item.run.id)) track(item, (active) => launch(item, active));
        if (claimed.length === free) again = true;
      } while (again && !stopping);
    } catch (error) {
      logger.error("could not claim queued runs; trying again shortly", { error });
    } finally {
      pumping = false;
    }
  };

  function wake() {
    if (stopping || !begun) return;
    if (pumping) {
      again = true;
      return;
    }
    void pump();
  }

  const checkCancels = async () => {
    if (running.size === 0) return;
    try {
      for (const run of await store.cancelRequested()) {
        const active = running.get(run.id);
        if (active === undefined) continue;
        active.stop.cancelReason ??= run.reason.startsWith("cancel") ? run.reason : "cancelled with errand runs cancel";
        active.halt("cancel");
      }
    } catch (error) {
      logger.warn("could not read cancel requests", { error });
    }
  };

  const recover = async () => {
    const left = await store.listRuns({ states: ["Running"], limit: 100_000 });
    for (const run of left) {
      const ticket = await store.getTicket(run.ticket);
      const engine = options.engines.get(run.engine);
      if (ticket === undefined || engine === undefined) {
        const reason = `controller restarted while the run was running; ${ticket === undefined ? "its ticket is missing" : `engine "${run.engine}" is not configured any more`}`;
        await store.transition({ runId: run.id, from: ["Running"], to: "Failed", reason, patch: { result: refusedResult(reason) } });
        continue;
      }
      await recoverOne(run, ticket, engine);
    }
  };

  const recoverOne = async (run: TaskRun, ticket: Ticket, engine: Engine) => {
    const item = { run, ticket };
    const spec: RunSpec = { run, ticket, engine, prompt: options.prompt(engine.name, ticket), apiKey: options.apiKey(engine.name) };
    track(item, async (active) => {
      const plan = await backend.recover(run, { onEvent: (e) => active.onEvent(e) }, spec);
      if (plan.action === "reattach") {
        logger.info("re-attached a run left running by the previous controller", { run_id: run.id });
        await superviseRun(active, plan.handle, run.startedAt ?? now(), deps);
        return;
      }
      if (plan.action === "requeue") {
        await store.transition({ runId: run.id, from: ["Running"], to: "Queued", reason: plan.reason });
        logger.warn("run left running by the previous controller queued again", { run_id: run.id, reason: plan.reason });
        return;
      }
      const result = refusedResult(plan.reason);
      const stored = await store.transition({ runId: run.id, from: ["Running"], to: "Failed", reason: plan.reason, patch: { result } });
      logger.warn("run left running by the previous controller resolved", { run_id: run.id, state: "Failed", reason: plan.reason });
      if (stored !== undefined) active.events.push({ type: "finished", run: stored, ticket, result });
    });
  };

  return {
    get active() {
      return running.size;
    },
    async start() {
      begun = true;
      const released = await store.releaseAllClaims();
      if (released > 0) logger.info("released claims left by the previous controller", { runs: released });
      await recover();
      // Queued runs cancelled while no controller led are announced now, as the ends the restart rule finds are.
      void announcer.check();
      poller = setInterval(() => {
        void checkCancels();
        void announcer.check();
        wake();
      }, options.pollMs ?? 1000);
      wake();
    },
    wake,
    async stop(graceMs) {
      stopping = true;
      clearInterval(poller);
      const all = () => Promise.all([...running.values()].map((r) => r.finished));
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<"grace">((resolve) => (timer = setTimeout(() => resolve("grace"), graceMs)));
      const first = await Promise.race([all().then(() => "done" as const), graceOver]);
      clearTimeout(timer);
      if (first === "grace") {
        // Runs that outlive the controller (Kubernetes Jobs) are left running, and Running, for the next controller.
        const action = backend.detachesOnShutdown ? "leaving the runs still running to the next controller" : "stopping the runs still running";
        logger.warn(`grace period over; ${action}`, { runs: running.size, grace_ms: graceMs });
        for (const active of running.values()) {
          active.stop.shutdownReason = `the controller shut down before the run finished (grace period of ${Math.round(graceMs / 1000)} s ended)`;
          active.leave();
        }
        await all();
      }
      // What the channels are still being told about ended runs (each call bounded by the notifier's timeout).
      await Promise.allSettled([...notifying, announcer.settled()]);
    },
  };
}
