import { hostname } from "node:os";
import type { Logger } from "@errand/channel-sdk";
import { collectDefaultMetrics, Registry } from "prom-client";
import type { ControllerConfig } from "./config/controller-config.js";
import { createBackend } from "./execution/create-backend.js";
import type { ExecutionBackend } from "./execution/execution-backend.js";
import { scrubbingBackend } from "./execution/scrubbing-backend.js";
import { createBatchedSink } from "./intake/batched-sink.js";
import type { TicketSink, TicketSource } from "./intake/ticket-source.js";
import type { LeaderElection } from "./loop/leader-election.js";
import { createObserverDispatch, type ObserverDispatch } from "./loop/observer-dispatch.js";
import type { Reconciler } from "./loop/reconciler.js";
import type { Notifier } from "./notify/notifier-types.js";
import { listenError } from "./ops/listen-error.js";
import { createOpsServer, type OpsServer, type ReadinessCheck } from "./ops/ops-server.js";
import type { RunObserver } from "./runs/run-event.js";
import { secretValues } from "./secrets/secret-values.js";
import type { PollAdapter } from "./sources/polling/poll-adapter.js";
import { openStore } from "./store/open-store.js";
import type { Store } from "./store/store.js";
import { createConfiguredEngines, createConfiguredLoop } from "./wiring/configured-loop.js";
import { createConfiguredNotifier } from "./wiring/configured-notifier.js";
import { createConfiguredPolling, createTicketSources } from "./wiring/intake-parts.js";
import { createLeadership } from "./wiring/leadership.js";
import { readinessChecks } from "./wiring/readiness-checks.js";

/** Options of {@link createController}. */
export interface ControllerOptions {
  config: ControllerConfig;
  /** Every secret the config names, resolved (see resolveSecrets). */
  secrets: Readonly<Record<string, string>>;
  logger: Logger;
  /** Run observers besides the ones built from the config (the notifier, ticket write-back). */
  observers?: RunObserver[];
  /** Extra readiness parts (channels). */
  checks?: ReadinessCheck[];
  /** Replaces the backend built from `execution` (tests, benchmarks). */
  backend?: ExecutionBackend;
  /** Replaces the poll adapter built from `ticketing` (tests). */
  pollAdapter?: PollAdapter;
}

/** A running controller. */
export interface Controller {
  readonly store: Store;
  readonly registry: Registry;
  readonly loop: Reconciler;
  /** Ops server (`/healthz`, `/readyz`, `/metrics`); its address once started. */
  readonly ops: OpsServer;
  /** Ticket sources; the webhook intake's server address is on it once started. */
  readonly sources: readonly TicketSource[];
  /** The notification channels of `notifications.channels`; undefined when none are configured. */
  readonly notifier: Notifier | undefined;
  /** Opens the store, resolves runs left by a crash, starts the loop, the sources and the ops server. */
  start(): Promise<void>;
  /** Stops intake, lets runs finish within `ops.shutdown_grace_seconds`, stops the rest, closes everything. */
  stop(): Promise<void>;
  /**
   * Settles with the reason when this controller lost the lead of the loop
   * it had (another took over): the caller stops it and exits non-zero, as a
   * Kubernetes controller does, rather than run a second loop.
   */
  readonly lost: Promise<string>;
}

/**
 * The observers' bound beyond three calls: the notifier bounds each channel call itself, and a run's completion may
 * wait on a channel for that run's start and one progress message before its own call. This is the loop's backstop.
 */
const OBSERVER_MARGIN_MS = 1_000;

/** Wires the controller from a validated configuration: intake → store → loop → execution → observers. */
export async function createController(options: ControllerOptions): Promise<Controller> {
  const { config, logger, secrets } = options;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "errand_" });
  const store = await openStore(config.store, secrets, logger);
  const engines = createConfiguredEngines(config);
  const allSecrets = secretValues(config, secrets);
  // Every engine's output passes here on its way to the store and the channels: secrets masked, workspace paths relative.
  const backend = scrubbingBackend(
    options.backend ?? (await createBackend(config.execution.backend, config, logger, allSecrets)),
    allSecrets,
  );
  const notifier = await createConfiguredNotifier(config, secrets, logger, registry);
  const polling = await createConfiguredPolling(config, secrets, logger, registry, options.pollAdapter);
  const dispatch = createObserverDispatch({
    observers: [
      ...(notifier ? [notifier.observer] : []),
      ...(polling ? [polling.observer] : []),
      ...(options.observers ?? []),
    ],
    timeoutMs: 3 * config.notifications.callTimeoutMs + OBSERVER_MARGIN_MS,
    logger,
  });
  const owner = `${hostname()}/${process.pid}`;
  const loop = createConfiguredLoop({ config, secrets, store, backend, engines, dispatch, owner, logger, registry });
  const sources = createTicketSources(config, store, polling, logger, registry);
  const t = config.ticketing;
  const sink = createBatchedSink({
    store,
    engine: config.engines.default,
    onCommitted: () => loop.wake(),
    ...(t?.repoUrl === undefined ? {} : { defaultRepo: { source: t.backend, url: t.repoUrl } }),
  });
  const { election, lost } = createLeadership({
    store,
    owner,
    ttlMs: config.ops.leaderLeaseMs,
    loop,
    polling,
    sink,
    logger,
  });
  let started = false;
  const checks = readinessChecks({
    started: () => started,
    election,
    loop,
    store,
    sources,
    notifier,
    extra: options.checks ?? [],
  });
  const ops = createOpsServer({ host: config.ops.host, port: config.ops.port, registry, checks });
  const parts: Parts = {
    config,
    logger,
    store,
    backend,
    engines: [...engines.keys()],
    notifier,
    election,
    loop,
    sources,
    polling,
    sink,
    dispatch,
    ops,
  };

  let stopped: Promise<void> | undefined;
  return {
    store,
    registry,
    loop,
    ops,
    sources,
    notifier,
    lost,
    async start() {
      await startParts(parts);
      started = true;
      logger.info("controller started", {
        leading: election.leading,
        store: `${store.kind}:${store.location}`,
        backend: backend.name,
        engines: parts.engines,
        sources: sources.map((s) => s.name),
        ops: ops.address,
      });
    },
    stop() {
      stopped ??= stopParts(parts);
      return stopped;
    },
  };
}

/** The parts {@link createController} wired, as starting and stopping them needs them. */
interface Parts {
  config: ControllerConfig;
  logger: Logger;
  store: Store;
  backend: ExecutionBackend;
  engines: string[];
  notifier: Notifier | undefined;
  election: LeaderElection;
  loop: Reconciler;
  sources: readonly TicketSource[];
  polling: TicketSource | undefined;
  sink: TicketSink;
  dispatch: ObserverDispatch;
  ops: OpsServer;
}

/** Starts the parts in the order that takes no ticket in before the channels and the loop's leadership are settled. */
async function startParts(parts: Parts): Promise<void> {
  const { config, ops } = parts;
  // Channels first: a channel that cannot be set up is a start-up error, before any ticket is taken in.
  await parts.notifier?.start();
  // Every replica takes tickets in; only the leader runs them (and resolves what a dead leader left).
  await parts.election.start();
  for (const source of parts.sources) {
    if (source === parts.polling) continue;
    await source.start(parts.sink).catch((error: unknown) => {
      throw listenError(error, "webhook server", "webhook.port", config.webhook.host, config.webhook.port);
    });
  }
  await ops.start().catch((error: unknown) => {
    throw listenError(error, "ops server", "ops.port", config.ops.host, config.ops.port);
  });
  // Warmed now, not at the first run, so the first ticket does not wait for it; after the servers listen, so that
  // starting the engine spawner's process does not lengthen the controller's own start.
  parts.backend.warm?.();
}

/** Stops intake first, then the loop (with grace), then everything the loop used. */
async function stopParts(parts: Parts): Promise<void> {
  parts.ops.draining();
  // Intake first: a ticket answered 200 after this point would wait for a loop that no longer starts it.
  await Promise.allSettled(parts.sources.map((s) => s.stop()));
  await parts.loop.stop(parts.config.ops.shutdownGraceMs);
  await parts.election.stop();
  await parts.dispatch.close();
  await parts.backend.close();
  await parts.store.close();
  await parts.ops.stop();
  parts.logger.info("controller stopped");
}
