import type { Logger } from "@errand/channel-sdk";
import type { Registry } from "prom-client";
import type { ControllerConfig } from "../config/controller-config.js";
import { type ConsoleHandler, createConsole } from "../console/console-router.js";
import { type ConsoleServer, createConsoleServer } from "../console/console-server.js";
import { stepsReader } from "../console/log-stream.js";
import type { LeaderView } from "../console/status-pages.js";
import type { ExecutionBackend } from "../execution/execution-backend.js";
import type { TicketSource } from "../intake/ticket-source.js";
import type { Reconciler } from "../loop/reconciler.js";
import type { Notifier } from "../notify/notifier-types.js";
import type { Approvals } from "../runs/approvals-port.js";
import { secretValues } from "../secrets/secret-values.js";
import type { PollingSource } from "../sources/polling/polling-source.js";
import type { Store } from "../store/store.js";

/** The parts of a controller the console reads and acts on. */
export interface ConsoleParts {
  config: ControllerConfig;
  secrets: Readonly<Record<string, string>>;
  store: Store;
  /** The scrubbing backend: the console reads log tails through it, secrets masked. */
  backend: ExecutionBackend;
  notifier: Notifier | undefined;
  sources: readonly TicketSource[];
  polling: PollingSource | undefined;
  registry: Registry;
  election: LeaderView;
  loop: Reconciler;
  approvals: Approvals | undefined;
  logger: Logger;
}

/** The console as configured: none when disabled; its own server when `console.port` is set, else a handler for the ops server. */
export function createConfiguredConsole(parts: ConsoleParts): {
  handler: ConsoleHandler | undefined;
  server: ConsoleServer | undefined;
} {
  const c = parts.config.console;
  if (!c.enabled) return { handler: undefined, server: undefined };
  const handler = createConsole({
    config: c,
    token: c.tokenSecret === undefined ? undefined : parts.secrets[c.tokenSecret],
    secrets: secretValues(parts.config, parts.secrets),
    store: parts.store,
    readSteps: stepsReader(parts.backend),
    notifier: parts.notifier,
    sources: parts.sources,
    poller: parts.polling,
    registry: parts.registry,
    election: parts.election,
    approvals: parts.approvals,
    wake: () => parts.loop.wake(),
    logger: parts.logger.child({ component: "console" }),
  });
  return c.port === undefined
    ? { handler, server: undefined }
    : { handler: undefined, server: createConsoleServer(handler, c.host, c.port) };
}
