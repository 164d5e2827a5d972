import {
  createThrottle,
  defineChannel,
  isChannelError,
  type Logger,
  type NotifyContext,
  type NotifyResult,
  RateLimitedError,
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
  /**
   * Until when the platform asked us to hold back (a 429's Retry-After). The
   * throttle honours it too, but cannot tell how long its next slot is away.
   */
  pause: { until: number };
}

/** Retries end 1 s before the 5-second call target, so the answer still arrives in time. */
const RETRY_BUDGET_MS = 4000;

// Instances in one process that post to the same channel share its pace.
const lanes = new Map<string, { throttle: Throttle; queue: SerialQueue; pause: { until: number } }>();

function laneFor(config: ChatAConfig) {
  const key = `${config.apiBaseUrl}|${config.channelId}|${config.minIntervalMs}`;
  let lane = lanes.get(key);
  if (!lane) {
    lane = { throttle: createThrottle({ intervalMs: config.minIntervalMs }), queue: createSerialQueue(), pause: { until: 0 } };
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
  const { config, client, throttle, queue, pause } = ctx.state;
  const release = await queue.acquire(ctx.signal);
  try {
    const posted = await retry(
      async ({ signal, remainingMs }) => {
        const waitMs = pause.until - Date.now();
        // Waiting out a long Retry-After would only end in a deadline error.
        if (waitMs >= remainingMs) {
          throw new RateLimitedError(`chat_a: channel ${config.channelId} is rate-limited for another ${waitMs} ms, longer than the call may wait`, {
            retryAfterMs: waitMs,
            hint: "the platform asked to slow down; the message was not sent",
          });
        }
        await throttle.wait(config.channelId, signal);
        try {
          return await client.postMessage(message, signal);
        } catch (error) {
          if (isChannelError(error) && error.retryAfterMs !== undefined) {
            throttle.penalize(config.channelId, error.retryAfterMs);
            pause.until = Math.max(pause.until, Date.now() + error.retryAfterMs);
          }
          throw error;
        }
      },
      {
        signal: ctx.signal,
        budgetMs: RETRY_BUDGET_MS,
        onRetry: ({ attempt, error, delayMs }) =>
          ctx.logger.warn("retrying chat.postMessage", { attempt, delayMs, code: error.code, error: error.message }),
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
