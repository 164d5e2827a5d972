import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
// The logger alone: the SDK root loads gRPC, which the intake never needs (start-up time).
import { type Logger, silentLogger } from "@errand/channel-sdk/logger";
import type { Registry } from "prom-client";
import type { SourceId } from "../config/webhook-config.js";
import { createClientErrorHandler, createConnectHandler } from "./client-error.js";
import { DeadlineQueue } from "./deadlines.js";
import type { DedupeStore } from "./dedupe/dedupe-store.js";
import { createMemoryDedupeStore } from "./dedupe/memory-dedupe-store.js";
import { createRequestHandler } from "./handle-request.js";
import type { ApprovalHandler, ReviewHandler, TicketHandler } from "./handlers.js";
import { createWebhookMetrics } from "./metrics.js";
import { createSources } from "./parsing/index.js";
import type { WebhookConfig } from "./webhook-schema.js";

/** Options of {@link createWebhookServer}. */
export interface WebhookServerOptions {
  /** The validated `webhook` section (see `loadWebhookConfig`). */
  config: WebhookConfig;
  /** Receives every delivery's tickets; answer 200 waits for it. */
  onTickets: TicketHandler;
  /** Receives chat A approval callbacks; without it they are acknowledged and dropped. */
  onApprovals?: ApprovalHandler;
  /** Receives reviews on pull requests (follow-up runs); without it they are answered 200 ignored. */
  onReviews?: ReviewHandler;
  /** Structured logger; default silent. Secrets are never passed to it. */
  logger?: Logger;
  /** Delivery-id store; default a bounded in-memory store sized by `webhook.dedupe`. */
  dedupeStore?: DedupeStore;
  /**
   * The ticket handler checks and marks each delivery's id itself, in the
   * transaction that stores the delivery's tickets, and resolves with
   * `seen` when the id was known (see TicketHandlerResult): the server
   * then claims ids in `dedupeStore` only for deliveries without tickets
   * or with approvals. Saves a delivery a claim of its own. Default false.
   */
  dedupeWithTickets?: boolean;
  /** Registry for the metrics; default a fresh one (served at GET /metrics). */
  registry?: Registry;
  /** Clock in milliseconds, for timestamp checks; default `Date.now`. */
  now?: () => number;
}

/** A running (or runnable) webhook intake server. */
export interface WebhookServer {
  /** Binds `config.host:config.port` (or `port`) and resolves with the bound address. */
  start(port?: number): Promise<AddressInfo>;
  /**
   * Stops accepting connections, lets in-flight requests and hand-offs
   * finish (up to `webhook.timeouts.shutdown_ms`), then closes the rest.
   */
  stop(): Promise<void>;
  /** The bound address once started. */
  readonly address: AddressInfo | undefined;
  /** The sources served with this configuration. */
  readonly sources: readonly SourceId[];
  /** The metrics registry. */
  readonly registry: Registry;
  /** The underlying node:http server. */
  readonly server: Server;
}

/** Creates the webhook intake server from a validated configuration. */
export function createWebhookServer(options: WebhookServerOptions): WebhookServer {
  const { config } = options;
  const logger = options.logger ?? silentLogger;
  const metrics = createWebhookMetrics(options.registry);
  const sources = createSources(config);
  const pending = new Set<Promise<unknown>>();
  let stopping = false;
  let stopped: Promise<void> | undefined;

  const t = config.timeouts;
  const server = createServer({
    headersTimeout: t.headersMs,
    requestTimeout: t.requestMs,
    keepAliveTimeout: t.keepAliveMs,
    maxHeaderSize: config.maxHeaderBytes,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(t.headersMs / 4))),
  });
  server.keepAliveTimeout = t.keepAliveMs;
  server.on(
    "request",
    createRequestHandler({
      sources,
      maxBodyBytes: config.maxBodyBytes,
      metrics,
      exposeMetrics: config.metrics,
      now: options.now ?? Date.now,
      stopping: () => stopping,
      onTickets: options.onTickets,
      onApprovals: options.onApprovals,
      onReviews: options.onReviews,
      dedupe: options.dedupeStore ?? createMemoryDedupeStore(config.dedupe),
      dedupeWithTickets: options.dedupeWithTickets === true,
      deadlines: new DeadlineQueue(t.handlerMs),
      logger,
      pending,
    }),
  );
  server.on("clientError", createClientErrorHandler(logger, metrics));
  server.on("connect", createConnectHandler(logger, metrics));

  const stop = async (): Promise<void> => {
    stopping = true;
    await closeGracefully(server, pending, t.shutdownMs);
    logger.info("webhook server stopped");
  };

  return {
    server,
    registry: metrics.registry,
    sources: [...sources.keys()],
    get address() {
      const a = server.address();
      return a !== null && typeof a === "object" ? a : undefined;
    },
    start(port = config.port) {
      return new Promise<AddressInfo>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, config.host, () => {
          server.off("error", reject);
          const address = server.address() as AddressInfo;
          logger.info("webhook server listening", {
            host: address.address,
            port: address.port,
            sources: [...sources.keys()],
          });
          resolve(address);
        });
      });
    },
    stop() {
      stopped ??= stop();
      return stopped;
    },
  };
}

/** Closes the server, then waits for the hand-offs under way; after `shutdownMs` in all, connections are cut and it resolves. */
async function closeGracefully(
  server: Server,
  pending: ReadonlySet<Promise<unknown>>,
  shutdownMs: number,
): Promise<void> {
  const started = Date.now();
  const force = setTimeout(() => server.closeAllConnections(), shutdownMs);
  let wait: NodeJS.Timeout | undefined;
  try {
    if (server.listening) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
    }
    // Hand-offs whose client went away still finish, so nothing half-done is left behind.
    const left = Math.max(0, shutdownMs - (Date.now() - started));
    if (pending.size > 0) {
      await Promise.race([
        Promise.allSettled([...pending]),
        new Promise((resolve) => (wait = setTimeout(resolve, left))),
      ]);
    }
  } finally {
    clearTimeout(force);
    clearTimeout(wait);
  }
}
