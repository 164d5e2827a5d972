import type { Logger } from "@errand/channel-sdk";
import type { Registry } from "prom-client";
import type { ControllerConfig } from "../config/controller-config.js";
import { createFollowUpIntake } from "../follow-ups/follow-up-intake.js";
import type { TicketSource } from "../intake/ticket-source.js";
import type { RepositoryToken } from "../repositories/repository-token.js";
import { createPollAdapter } from "../sources/polling/create-poll-adapter.js";
import type { PollAdapter } from "../sources/polling/poll-adapter.js";
import { createPollingSource, type PollingSource } from "../sources/polling/polling-source.js";
import { createWebhookSource } from "../sources/webhook-source.js";
import type { Store } from "../store/store.js";
import { createReviewReader } from "../vendors/codehost-a/review-comments.js";
import type { ApprovalHandler, ReviewHandler } from "../webhook/handlers.js";

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
  followUps: FollowUpWiring = {},
): TicketSource[] {
  const sources: TicketSource[] = [];
  if (config.webhook.enabled !== false && hasWebhookSource(config)) {
    const onReviews = createConfiguredFollowUps(config, store, logger, followUps);
    sources.push(
      createWebhookSource({
        config: config.webhook,
        store,
        logger: logger.child({ component: "webhook" }),
        registry,
        ...(onApprovals === undefined ? {} : { onApprovals }),
        ...(onReviews === undefined ? {} : { onReviews }),
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

/** What the follow-up intake needs besides the configuration. */
export interface FollowUpWiring {
  /** Code host A's credential, to read a review's comments and a pull request's branch; without it the webhook's text alone. */
  token?: RepositoryToken;
  /** Called once a follow-up run is queued (the loop's wake). */
  onQueued?: () => void;
}

/** The follow-up intake of code host A's reviews, when `repositories.codehost_a` is configured. */
function createConfiguredFollowUps(
  config: ControllerConfig,
  store: Store,
  logger: Logger,
  wiring: FollowUpWiring,
): ReviewHandler | undefined {
  const codehostA = config.repositories.codehostA;
  if (codehostA === undefined) return undefined;
  const intake = createFollowUpIntake({
    config: codehostA,
    store,
    reviews: wiring.token && createReviewReader(codehostA.api_base_url, wiring.token),
    logger: logger.child({ component: "follow-ups" }),
  });
  return async (reviews, ctx) => {
    const result = await intake(reviews, ctx);
    if (result.reply.status === "accepted") wiring.onQueued?.();
    return result;
  };
}
