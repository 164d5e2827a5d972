import { hostname } from "node:os";
import type { Logger } from "@errand/channel-sdk";
import { collectDefaultMetrics, Registry } from "prom-client";
import type { ControllerConfig } from "./config/controller-config.js";
import type { ConsoleServer } from "./console/console-server.js";
import { createBackend } from "./execution/create-backend.js";
import type { ExecutionBackend } from "./execution/execution-backend.js";
import { scrubbingBackend } from "./execution/scrubbing-backend.js";
import { createBatchedSink } from "./intake/batched-sink.js";
import type { TicketSink, TicketSource } from "./intake/ticket-source.js";
import { createObserverDispatch, type ObserverDispatch } from "./loop/observer-dispatch.js";
import type { Reconciler } from "./loop/reconciler.js";
import type { Notifier } from "./notify/notifier-types.js";
import { createOpsServer, type OpsServer, type ReadinessCheck } from "./ops/ops-server.js";
import { createRepositoryAccess, type RepositoryAccess } from "./repositories/repository-access.js";
import { repositoryBackend } from "./repositories/repository-backend.js";
import type { Approvals } from "./runs/approvals-port.js";
import type { RunObserver } from "./runs/run-event.js";
import { secretValues } from "./secrets/secret-values.js";
import type { PollAdapter } from "./sources/polling/poll-adapter.js";
import type { PollingSource } from "./sources/polling/polling-source.js";
import type { ThrottleClock } from "./sources/progress-comment/comment-throttle.js";
import { openStore } from "./store/open-store.js";
import type { Store } from "./store/store.js";
import { type ApprovalParts, createApprovalParts } from "./wiring/approval-parts.js";
import { createConfiguredConsole } from "./wiring/configured-console.js";
import { createConfiguredEngines, createConfiguredLoop } from "./wiring/configured-loop.js";
import { createConfiguredNotifier } from "./wiring/configured-notifier.js";
import { createConfiguredPolling, createTicketSources } from "./wiring/intake-parts.js";
import { createLeadership } from "./wiring/leadership.js";
import { type Parts, startParts, stopParts } from "./wiring/lifecycle.js";
import { createProgressComments } from "./wiring/progress-comments.js";
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
  /** The clock that paces the progress comments' edits (tests move one by hand); the system's by default. */
  progressCommentClock?: ThrottleClock;
}

/** A running controller. */
export interface Controller {
  readonly store: Store;
  readonly registry: Registry;
  readonly loop: Reconciler;
  /** Ops server (`/healthz`, `/readyz`, `/metrics`, and the console unless it has a port of its own); its address once started. */
  readonly ops: OpsServer;
  /** The console's own server when `console.port` is set; its address once started. */
  readonly consoleServer: ConsoleServer | undefined;
  /** Ticket sources; the webhook intake's server address is on it once started. */
  readonly sources: readonly TicketSource[];
  /** The notification channels of `notifications.channels`; undefined when none are configured. */
  readonly notifier: Notifier | undefined;
  /** Approving and rejecting runs that await approval (`guardrails.require_approval`). */
  readonly approvals: Approvals;
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
  const access = createRepositoryAccess(config.repositories.codehostA, secrets);
  const backend = await createScrubbedBackend(options, access);
  const notifier = await createConfiguredNotifier(config, secrets, logger, registry);
  const polling = await createConfiguredPolling(config, secrets, logger, registry, options.pollAdapter);
  const dispatch = await createDispatch(options, { registry, access, notifier, polling });
  const owner = `${hostname()}/${process.pid}`;
  let ops: OpsServer | undefined;
  const approval = createApprovalParts({
    config,
    secrets,
    store,
    dispatch,
    opsPort: () => ops?.address?.port ?? config.ops.port,
    consolePort: () => web.server?.address?.port,
    logger,
  });
  const loop = createConfiguredLoop({
    config,
    secrets,
    store,
    backend,
    engines,
    dispatch,
    owner,
    logger,
    registry,
    approvals: approval.sweep,
  });
  const { sources, sink } = createIntake(options, { store, polling, registry, approval, loop, access });
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
  const web = createConfiguredConsole({
    ...{ config, secrets, store, backend, notifier, sources, polling, registry, election, loop, logger },
    approvals: approval.approvals,
  });
  ops = createOpsServer({ host: config.ops.host, port: config.ops.port, registry, checks, extra: web.handler });
  const shared = { config, logger, store, backend, notifier, election, loop, sources, polling, sink, dispatch, ops };
  const parts: Parts = { ...shared, engines: [...engines.keys()], consoleServer: web.server };
  return controllerOf(parts, registry, lost, approval.approvals, () => {
    started = true;
  });
}

/** The execution backend every engine's output passes through on its way to the store and the channels. */
async function createScrubbedBackend(
  options: ControllerOptions,
  access: RepositoryAccess | undefined,
): Promise<ExecutionBackend> {
  const { config, logger, secrets } = options;
  const allSecrets = secretValues(config, secrets);
  const backend =
    options.backend ?? (await createBackend(config.execution.backend, config, logger, allSecrets, access?.token));
  // Checkouts and pull requests when `repositories.codehost_a` is set; secrets masked, workspace paths relative.
  return scrubbingBackend(
    repositoryBackend(backend, {
      config: config.repositories,
      access,
      // A follow-up on review continues its pull request's branch.
      branchOf: ({ run }) => (run.followUp ? { branch: run.followUp.pullRequest.branch, existing: true } : undefined),
      workspaceDir: config.execution.local.workspaceDir,
      secrets,
      tokenEnv: (engine) => config.engines.byName[engine]?.repositoryTokenEnv ?? [],
      logger,
    }),
    allSecrets,
  );
}

/** The parts the run observers are made of. */
interface ObserverParts {
  registry: Registry;
  /** Code host A's credential: with it, progress comments on its issues. */
  access: RepositoryAccess | undefined;
  notifier: Notifier | undefined;
  polling: PollingSource | undefined;
}

/** The run observers (notifier, ticket write-back, progress comments, the caller's), each call bounded. */
async function createDispatch(
  options: ControllerOptions,
  { registry, access, notifier, polling }: ObserverParts,
): Promise<ObserverDispatch> {
  const { config, logger, secrets, progressCommentClock: clock } = options;
  const progressComments = await createProgressComments(config, {
    secrets,
    logger,
    registry,
    ...(access === undefined ? {} : { codehostAToken: access.token }),
    ...(clock === undefined ? {} : { clock }),
  });
  return createObserverDispatch({
    observers: [
      ...(notifier ? [notifier.observer] : []),
      ...(polling ? [polling.observer] : []),
      ...progressComments,
      ...(options.observers ?? []),
    ],
    timeoutMs: 3 * options.config.notifications.callTimeoutMs + OBSERVER_MARGIN_MS,
    logger: options.logger,
  });
}

/** What the ticket sources and their sink are wired to. */
interface IntakeParts {
  store: Store;
  polling: PollingSource | undefined;
  registry: Registry;
  approval: ApprovalParts;
  loop: Reconciler;
  /** Code host A's credential: its webhook reads reviews with it. */
  access: RepositoryAccess | undefined;
}

/** The ticket sources and the sink they hand their tickets to; both wake the loop. */
function createIntake(options: ControllerOptions, parts: IntakeParts): { sources: TicketSource[]; sink: TicketSink } {
  const { config, logger } = options;
  const { store, polling, registry, approval, loop, access } = parts;
  const sources = createTicketSources(config, store, polling, logger, registry, approval.onApprovals, {
    onQueued: () => loop.wake(),
    ...(access === undefined ? {} : { token: access.token }),
  });
  return { sources, sink: createIntakeSink(config, store, loop, approval) };
}

/** Where every source hands its tickets: batched into the store, waking the loop once they are committed. */
function createIntakeSink(
  config: ControllerConfig,
  store: Store,
  loop: Reconciler,
  { needsApproval }: ApprovalParts,
): TicketSink {
  const t = config.ticketing;
  return createBatchedSink({
    store,
    engine: config.engines.default,
    onCommitted: () => loop.wake(),
    ...(needsApproval === undefined ? {} : { needsApproval }),
    ...(t?.repoUrl === undefined ? {} : { defaultRepo: { source: t.backend, url: t.repoUrl } }),
  });
}

/** The controller's public face over its wired parts; `onStarted` flips readiness once every part is up. */
function controllerOf(
  parts: Parts,
  registry: Registry,
  lost: Promise<string>,
  approvals: Approvals,
  onStarted: () => void,
): Controller {
  const { store, loop, ops, sources, notifier, election, backend, logger } = parts;
  let stopped: Promise<void> | undefined;
  return {
    store,
    registry,
    loop,
    ops,
    consoleServer: parts.consoleServer,
    sources,
    notifier,
    approvals,
    lost,
    async start() {
      await startParts(parts);
      onStarted();
      logger.info("controller started", {
        leading: election.leading,
        store: `${store.kind}:${store.location}`,
        backend: backend.name,
        engines: parts.engines,
        sources: sources.map((s) => s.name),
        ops: ops.address,
        ...(parts.consoleServer ? { console: parts.consoleServer.address } : {}),
      });
    },
    stop() {
      stopped ??= stopParts(parts);
      return stopped;
    },
  };
}
