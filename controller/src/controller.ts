import { hostname } from "node:os";
import type { Logger } from "@errand/channel-sdk";
import { collectDefaultMetrics, Registry } from "prom-client";
import type { ControllerConfig } from "./config/controller-config.js";
import { createEngine } from "./engines/create-engine.js";
import type { Engine } from "./engines/engine.js";
import { buildPrompt } from "./engines/prompt.js";
import { createBackend } from "./execution/create-backend.js";
import type { ExecutionBackend } from "./execution/execution-backend.js";
import { scrubbingBackend } from "./execution/scrubbing-backend.js";
import { createGuardrails } from "./guardrails/guardrails.js";
import { createBatchedSink } from "./intake/batched-sink.js";
import type { TicketSource } from "./intake/ticket-source.js";
import { createLeaderElection } from "./loop/leader-election.js";
import { createLoopMetrics } from "./loop/loop-metrics.js";
import { createObserverDispatch } from "./loop/observer-dispatch.js";
import { createReconciler, type Reconciler } from "./loop/reconciler.js";
import type { Notifier } from "./notify/notifier-types.js";
import { listenError } from "./ops/listen-error.js";
import { createOpsServer, type OpsServer, type ReadinessCheck } from "./ops/ops-server.js";
import type { RunObserver } from "./runs/run-event.js";
import { secretValues } from "./secrets/secret-values.js";
import { createPollAdapter } from "./sources/polling/create-poll-adapter.js";
import type { PollAdapter } from "./sources/polling/poll-adapter.js";
import { createPollingSource } from "./sources/polling/polling-source.js";
import { createWebhookSource } from "./sources/webhook-source.js";
import { openStore } from "./store/open-store.js";
import type { Store } from "./store/store.js";

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

  const engines = new Map<string, Engine>();
  for (const [name, engineConfig] of Object.entries(config.engines.byName)) engines.set(name, createEngine(engineConfig, { maxCostUsd: config.guardrails.maxCostPerJob }));
  const allSecrets = secretValues(config, secrets);
  // Every engine's output passes here on its way to the store and the channels: secrets masked, workspace paths relative.
  const backend = scrubbingBackend(options.backend ?? (await createBackend(config.execution.backend, config, logger, allSecrets)), allSecrets);
  const guardrails = createGuardrails(config.guardrails);
  const n = config.notifications;
  const notifier =
    n.channels.length === 0
      ? undefined
      : // Loaded only with channels: the notifier brings gRPC and the built-in channels (start-up time).
        (await import("./notify/create-notifier.js")).createNotifier({
          channels: n.channels,
          secrets,
          callTimeoutMs: n.callTimeoutMs,
          unhealthyAfter: n.unhealthyAfter,
          probeIntervalMs: n.probeIntervalMs,
          progressPerMinute: n.progressPerMinute,
          logger: logger.child({ component: "notifications" }),
          registry,
          pluginsDir: config.pluginsDir,
        });
  const polling =
    config.ticketing === undefined
      ? undefined
      : createPollingSource({
          adapter: options.pollAdapter ?? (await createPollAdapter(config.ticketing, secrets)),
          intervalMs: config.ticketing.pollIntervalMs,
          logger: logger.child({ component: "ticketing" }),
          registry,
        });
  const dispatch = createObserverDispatch({
    observers: [...(notifier ? [notifier.observer] : []), ...(polling ? [polling.observer] : []), ...(options.observers ?? [])],
    timeoutMs: 3 * config.notifications.callTimeoutMs + OBSERVER_MARGIN_MS,
    logger,
  });
  const owner = `${hostname()}/${process.pid}`;
  let loop: Reconciler | undefined;
  const metrics = createLoopMetrics(registry, store, () => loop?.active ?? 0);
  loop = createReconciler({
    store,
    backend,
    engines,
    prompt: (engine, ticket) => buildPrompt(ticket, config.engines.byName[engine]?.promptTemplate),
    apiKey: (engine) => {
      const name = config.engines.byName[engine]?.apiKeySecret;
      return name === undefined ? undefined : secrets[name];
    },
    guardrails,
    dispatch,
    maxConcurrent: config.guardrails.maxConcurrentJobs,
    owner,
    logger: logger.child({ component: "loop" }),
    metrics,
  });
  const reconciler = loop;

  const sources: TicketSource[] = [];
  if (config.webhook.enabled !== false && hasWebhookSource(config)) {
    sources.push(createWebhookSource({ config: config.webhook, store, logger: logger.child({ component: "webhook" }), registry }));
  }
  if (polling) sources.push(polling);
  let signalLost: (reason: string) => void = () => {};
  const lost = new Promise<string>((resolve) => (signalLost = resolve));
  const election = createLeaderElection({
    store,
    owner,
    ttlMs: config.ops.leaderLeaseMs,
    logger: logger.child({ component: "election" }),
    // Polling belongs to the leader too: a standby would only spend the vendor's quota on tickets it does not run.
    onElected: async () => {
      await reconciler.start();
      await polling?.start(sink);
    },
    onLost: (reason) => {
      logger.error("lost the lead of the loop; stopping", { reason });
      signalLost(reason);
    },
  });
  const t = config.ticketing;
  const sink = createBatchedSink({
    store,
    engine: config.engines.default,
    onCommitted: () => reconciler.wake(),
    ...(t?.repoUrl === undefined ? {} : { defaultRepo: { source: t.backend, url: t.repoUrl } }),
  });
  let started = false;
  const ops = createOpsServer({
    host: config.ops.host,
    port: config.ops.port,
    registry,
    checks: [
      {
        name: "loop",
        critical: true,
        check: () => ({ ok: started, detail: !started ? "starting" : election.leading ? `leading, ${reconciler.active} running` : `standby; ${election.leader ?? "another controller"} leads` }),
      },
      { name: "store", critical: true, check: async () => ({ ok: true, detail: `${store.kind} at ${store.location}, ${(await store.countRuns()).Queued} queued` }) },
      ...sources.map((s) => ({
        name: `source:${s.name}`,
        critical: true,
        check: () => {
          const h = s.health();
          return { ok: h.ready, detail: h.detail };
        },
      })),
      // Channels are non-critical (spec 1.4): they add detail to /readyz and never fail it.
      ...(notifier
        ? [
            {
              name: "notifications",
              critical: false,
              check: () => {
                const h = notifier.health();
                return { ok: h.status === "ok", detail: h.channels };
              },
            },
          ]
        : []),
      ...(options.checks ?? []),
    ],
  });

  let stopped: Promise<void> | undefined;
  return {
    store,
    registry,
    loop: reconciler,
    ops,
    sources,
    notifier,
    lost,
    async start() {
      // Channels first: a channel that cannot be set up is a start-up error, before any ticket is taken in.
      await notifier?.start();
      // Every replica takes tickets in; only the leader runs them (and resolves what a dead leader left).
      await election.start();
      for (const source of sources) {
        if (source === polling) continue;
        await source.start(sink).catch((error: unknown) => {
          throw listenError(error, "webhook server", "webhook.port", config.webhook.host, config.webhook.port);
        });
      }
      await ops.start().catch((error: unknown) => {
        throw listenError(error, "ops server", "ops.port", config.ops.host, config.ops.port);
      });
      // Warmed now, not at the first run, so the first ticket does not wait for it; after the servers listen, so that
      // starting the engine spawner's process does not lengthen the controller's own start.
      backend.warm?.();
      started = true;
      logger.info("controller started", { leading: election.leading, store: `${store.kind}:${store.location}`, backend: backend.name, engines: [...engines.keys()], sources: sources.map((s) => s.name), ops: ops.address });
    },
    stop() {
      stopped ??= (async () => {
        ops.draining();
        // Intake first: a ticket answered 200 after this point would wait for a loop that no longer starts it.
        await Promise.allSettled(sources.map((s) => s.stop()));
        await reconciler.stop(config.ops.shutdownGraceMs);
        await election.stop();
        await dispatch.close();
        await backend.close();
        await store.close();
        await ops.stop();
        logger.info("controller stopped");
      })();
      return stopped;
    },
  };
}

function hasWebhookSource(config: ControllerConfig): boolean {
  const w = config.webhook;
  return Object.keys(w.secrets).length > 0 || w.generic !== undefined || w.allowUnsignedTrackerB;
}
