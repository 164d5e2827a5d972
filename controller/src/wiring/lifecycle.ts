import type { Logger } from "@errand/channel-sdk";
import type { ControllerConfig } from "../config/controller-config.js";
import type { ConsoleServer } from "../console/console-server.js";
import type { ExecutionBackend } from "../execution/execution-backend.js";
import type { TicketSink, TicketSource } from "../intake/ticket-source.js";
import type { LeaderElection } from "../loop/leader-election.js";
import type { ObserverDispatch } from "../loop/observer-dispatch.js";
import type { Reconciler } from "../loop/reconciler.js";
import type { Notifier } from "../notify/notifier-types.js";
import { listenError } from "../ops/listen-error.js";
import type { OpsServer } from "../ops/ops-server.js";
import type { Store } from "../store/store.js";

/** The parts the controller wired, as starting and stopping them needs them. */
export interface Parts {
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
  /** The console's own server (`console.port`); undefined when the ops server serves it or it is off. */
  consoleServer?: ConsoleServer | undefined;
}

/** Starts the parts in the order that takes no ticket in before the channels and the loop's leadership are settled. */
export async function startParts(parts: Parts): Promise<void> {
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
  await parts.consoleServer?.start().catch((error: unknown) => {
    throw listenError(error, "console", "console.port", config.console.host, config.console.port ?? 0);
  });
  // Warmed now, not at the first run, so the first ticket does not wait for it; after the servers listen, so that
  // starting the engine spawner's process does not lengthen the controller's own start.
  parts.backend.warm?.();
}

/** Stops intake first, then the loop (with grace), then everything the loop used. */
export async function stopParts(parts: Parts): Promise<void> {
  parts.ops.draining();
  // Intake first: a ticket answered 200 after this point would wait for a loop that no longer starts it.
  await Promise.allSettled(parts.sources.map((s) => s.stop()));
  await parts.loop.stop(parts.config.ops.shutdownGraceMs);
  await parts.election.stop();
  await parts.dispatch.close();
  await parts.backend.close();
  await parts.store.close();
  await parts.consoleServer?.stop();
  await parts.ops.stop();
  parts.logger.info("controller stopped");
}
