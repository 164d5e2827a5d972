import type { Logger } from "@errand/channel-sdk";
import type { Registry } from "prom-client";
import type { ControllerConfig } from "../config/controller-config.js";
import type { TicketSource } from "../intake/ticket-source.js";
import { createPollAdapter } from "../sources/polling/create-poll-adapter.js";
import type { PollAdapter } from "../sources/polling/poll-adapter.js";
import { createPollingSource, type PollingSource } from "../sources/polling/polling-source.js";
import { createWebhookSource } from "../sources/webhook-source.js";
import type { Store } from "../store/store.js";
import type { ApprovalHandler } from "../webhook/handlers.js";

/** The poller of `ticketing`, when one is configured. */
export async function createConfiguredPolling(
  config: ControllerConfig,
  secrets: Readonly<Record<string, string>>,
  logger: Logger,
  registry: Registry,
  adapter?: PollAdapter,
): Promise<PollingSource | undefined> {
  if (config.ticketing === undefined) return undefined;
  return createPollingSource({
    adapter: adapter ?? (await createPollAdapter(config.ticketing, secrets)),
    intervalMs: config.ticketing.pollIntervalMs,
    logger: logger.child({ component: "ticketing" }),
    registry,
  });
}

/** The ticket sources: the webhook intake when it has something to receive, then the poller. */
export function createTicketSources(
  config: ControllerConfig,
  store: Store,
  polling: PollingSource | undefined,
  logger: Logger,
  registry: Registry,
  onApprovals?: ApprovalHandler,
): TicketSource[] {
  const sources: TicketSource[] = [];
  if (config.webhook.enabled !== false && hasWebhookSource(config)) {
    const webhookLogger = logger.child({ component: "webhook" });
    sources.push(
      createWebhookSource({
        config: config.webhook,
        store,
        logger: webhookLogger,
        registry,
        ...(onApprovals === undefined ? {} : { onApprovals }),
      }),
    );
  }
  if (polling) sources.push(polling);
  return sources;
}

function hasWebhookSource(config: ControllerConfig): boolean {
  const w = config.webhook;
  return Object.keys(w.secrets).length > 0 || w.generic !== undefined || w.allowUnsignedTrackerB;
}
