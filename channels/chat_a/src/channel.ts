import {
  createThrottle,
  defineChannel,
  type Logger,
  type NotifyContext,
  type NotifyResult,
  retry,
  type Throttle,
} from "@errand/channel-sdk";
import { type ChatAClient, createChatAClient } from "./api-client.js";
import { type ChatAConfig, parseChatAConfig } from "./config.js";
import type { ChatAMessage } from "./render/blocks.js";
import { renderComplete } from "./render/complete.js";
import { renderNotify } from "./render/notify.js";
import { renderStart } from "./render/start.js";
import { createSerialQueue, type SerialQueue } from "./serial-queue.js";
import { VERSION } from "./version.js";

/** Per-instance state of a chat_a channel. */
export interface ChatAState {
  config: ChatAConfig;
  client: ChatAClient;
  /** Spaces messages `minIntervalMs` apart and holds back after a 429. */
  throttle: Throttle;
  /** One delivery at a time, in order. */
  queue: SerialQueue;
}

/** Retries end 1 s before the 5-second call target, so the answer still arrives in time. */
const RETRY_BUDGET_MS = 4000;

// Instances in one process that post to the same channel share its pace.
const lanes = new Map<string, { throttle: Throttle; queue: SerialQueue }>();

function laneFor(config: ChatAConfig) {
  const key = `${config.apiBaseUrl}|${config.channelId}|${config.minIntervalMs}`;
  let lane = lanes.get(key);
  if (!lane) {
    lane = { throttle: createThrottle({ intervalMs: config.minIntervalMs }), queue: createSerialQueue() };
    lanes.set(key, lane);
  }
  return lane;
}

/**
 * Delivers one message: waits for the channel's turn (in order, abortable),
 * then for its throttle slot before each attempt; retries only transient
 * failures and 429s (after their `Retry-After`) within the budget.
 */
async function deliver(message: ChatAMessage, ctx: NotifyContext<ChatAState>): Promise<NotifyResult> {
  const { config, client, throttle, queue } = ctx.state;
  const release = await queue.acquire(ctx.signal);
  try {
    const posted = await retry(
      async ({ signal }) => {
        await throttle.wait(config.channelId, signal);
        return client.postMessage(message, signal);
      },
      {
        signal: ctx.signal,
        budgetMs: RETRY_BUDGET_MS,
        onRetry: ({ attempt, error, delayMs }) => {
          if (error.retryAfterMs !== undefined) throttle.penalize(config.channelId, error.retryAfterMs);
          ctx.logger.warn("retrying chat.postMessage", { attempt, delayMs, code: error.code, error: error.message });
        },
      },
    );
    return { deliveryId: posted.ts ? `${posted.channel}/${posted.ts}` : undefined };
  } finally {
    release();
  }
}

function createState(config: ChatAConfig, logger: Logger): ChatAState {
  return { config, client: createChatAClient(config, logger), ...laneFor(config) };
}

/**
 * The chat_a channel: Block Kit messages through a chat platform's
 * `chat.postMessage` (Slack's web API), one message per second per channel.
 *
 * Config: `channel_id` (ID, not name), `token_secret` (name of the secret with
 * the bot token), optional `api_base_url` (default https://slack.com/api).
 */
export const chatA = defineChannel<ChatAState>({
  name: "chat_a",
  version: VERSION,
  interfaceVersions: [1],
  init(config, secrets, { logger }) {
    const parsed = parseChatAConfig(config, secrets);
    logger.debug("chat_a ready", { channelId: parsed.channelId, apiBaseUrl: parsed.apiBaseUrl, minIntervalMs: parsed.minIntervalMs });
    return createState(parsed, logger);
  },
  notifyStart(ticket, ctx) {
    return deliver(renderStart(ticket, ctx.engine, { taskRunId: ctx.taskRunId }), ctx);
  },
  notifyComplete(ticket, result, ctx) {
    return deliver(renderComplete(ticket, result, { taskRunId: ctx.taskRunId }), ctx);
  },
  notify(message, ticket, ctx) {
    return deliver(renderNotify(message, ticket, { taskRunId: ctx.taskRunId }), ctx);
  },
});
