import type { Logger } from "@errand/channel-sdk";
import type { Registry } from "prom-client";
import { createStoreDedupe } from "../intake/store-dedupe.js";
import type { SourceHealth, TicketSink, TicketSource } from "../intake/ticket-source.js";
import type { Store } from "../store/store.js";
import type { ApprovalHandler, ReviewHandler } from "../webhook/handlers.js";
import { createWebhookServer, type WebhookServer } from "../webhook/server.js";
import type { WebhookConfig } from "../webhook/webhook-schema.js";

/** Options of {@link createWebhookSource}. */
export interface WebhookSourceOptions {
  config: WebhookConfig;
  /** Where delivery ids are deduplicated: the store the sink writes tickets to (it marks the ids with them). */
  store: Store;
  logger: Logger;
  registry: Registry;
  /** Chat A's approval callbacks (docs/approvals.md); without it they are logged and dropped. */
  onApprovals?: ApprovalHandler;
  /** Reviews on pull requests (follow-up runs); without it they are answered 200 ignored. */
  onReviews?: ReviewHandler;
}

/**
 * The webhook intake as a {@link TicketSource}: delivery ids deduplicated
 * in the store, tickets answered 200 once committed. A delivery's id is
 * checked and marked handled by the sink in the transaction that stores
 * its tickets (one store transaction per request, shared by every request
 * of its event-loop turn), so no crash stores the tickets without their
 * id; only deliveries without tickets (approvals) claim their id first.
 */
export function createWebhookSource(
  options: WebhookSourceOptions,
): TicketSource & { readonly server: WebhookServer | undefined } {
  const ttlMs = options.config.dedupe.ttlSeconds * 1000;
  let server: WebhookServer | undefined;
  let listening = false;
  return {
    name: "webhook",
    get server() {
      return server;
    },
    async start(sink: TicketSink) {
      server = createWebhookServer({
        config: options.config,
        logger: options.logger,
        registry: options.registry,
        dedupeStore: createStoreDedupe(options.store, ttlMs),
        dedupeWithTickets: true,
        onTickets: async (tickets, ctx) => {
          if (ctx.deliveryKey === undefined) {
            await sink.accept(tickets);
            return { deliveryCommitted: false };
          }
          const stored = await sink.acceptDelivery(tickets, { key: ctx.deliveryKey, ttlMs });
          return stored.delivery === "new"
            ? { deliveryCommitted: true }
            : { deliveryCommitted: false, seen: stored.delivery };
        },
        ...(options.onReviews === undefined ? {} : { onReviews: options.onReviews }),
        onApprovals: (approvals, ctx) => {
          // Every callback is logged as it comes; the approval flow decides it when one is configured.
          for (const a of approvals) {
            options.logger.info("approval callback received", {
              source: ctx.source,
              delivery_id: ctx.deliveryId,
              action_id: a.actionId,
              user_id: a.userId,
            });
          }
          return options.onApprovals?.(approvals, ctx);
        },
      });
      await server.start();
      listening = true;
    },
    async stop() {
      listening = false;
      await server?.stop();
    },
    health(): SourceHealth {
      if (!listening || server?.address === undefined) return { ready: false, detail: "not listening" };
      return { ready: true, detail: `listening on ${server.address.address}:${server.address.port}` };
    },
  };
}
