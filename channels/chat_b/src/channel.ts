import { defineChannel, isChannelError, type NotifyContext, type NotifyResult, RateLimitedError, retry } from "@errand/channel-sdk";
import { type ChatBClient, createChatBClient } from "./api-client.js";
import { type ChatBConfig, parseChatBConfig } from "./config.js";
import { WebhookBucket } from "./rate-limit.js";
import type { ChatBMessage } from "./render/message.js";
import { renderComplete, renderNotify, renderStart } from "./render/payload.js";
import { createSerialQueue, type SerialQueue } from "./serial-queue.js";
import { VERSION } from "./version.js";

/** Per-instance state of a chat_b channel. */
export interface ChatBState {
  config: ChatBConfig;
  client: ChatBClient;
  /** The webhook's rate-limit bucket, from the platform's headers. */
  bucket: WebhookBucket;
  /** One request at a time per webhook, in order. */
  queue: SerialQueue;
}

/** Retries end 1 s before the 5-second call target, so the answer still arrives in time. */
const RETRY_BUDGET_MS = 4000;

// Instances in one process that share a webhook share its bucket.
const lanes = new Map<string, { bucket: WebhookBucket; queue: SerialQueue }>();

function laneFor(config: ChatBConfig) {
  const key = `${config.shownUrl}|${config.webhookId}`;
  let lane = lanes.get(key);
  if (!lane) {
    lane = { bucket: new WebhookBucket(), queue: createSerialQueue() };
    lanes.set(key, lane);
  }
  return lane;
}

/**
 * Delivers one message: waits for the webhook's turn (in order, abortable)
 * and for its bucket, sends, notes the rate-limit headers; retries 429s
 * (after `retry_after`) and transient failures within the budget.
 */
async function deliver(message: ChatBMessage, ctx: NotifyContext<ChatBState>): Promise<NotifyResult> {
  const { client, bucket, queue } = ctx.state;
  const release = await queue.acquire(ctx.signal);
  try {
    const executed = await retry(
      async ({ signal, remainingMs }) => {
        const waitMs = bucket.waitMs();
        // Waiting longer than the call may last would only end in a deadline error.
        if (waitMs >= remainingMs) {
          throw new RateLimitedError(`chat_b: the webhook is rate-limited for another ${waitMs} ms, longer than the call may wait`, {
            retryAfterMs: waitMs,
            hint: "the platform asked to slow down; the message was not sent",
          });
        }
        await bucket.ready(signal);
        try {
          const result = await client.execute(message, signal);
          bucket.update(result.response.headers);
          return result;
        } catch (error) {
          if (isChannelError(error) && error.retryAfterMs !== undefined) bucket.pause(error.retryAfterMs);
          throw error;
        }
      },
      {
        signal: ctx.signal,
        budgetMs: RETRY_BUDGET_MS,
        onRetry: ({ attempt, error, delayMs }) =>
          ctx.logger.warn("retrying the webhook", { attempt, delayMs, code: error.code, error: error.message }),
      },
    );
    return { deliveryId: executed.id };
  } finally {
    release();
  }
}

/**
 * The chat_b channel: embeds through a chat platform's incoming webhook
 * (a Discord-style webhook URL), within the webhook's rate limits.
 *
 * Config: `webhook_url_secret` (name of the secret holding the webhook URL),
 * optional `username` and `avatar_url`.
 */
export const chatB = defineChannel<ChatBState>({
  name: "chat_b",
  version: VERSION,
  interfaceVersions: [1],
  init(config, secrets, { logger }) {
    const parsed = parseChatBConfig(config, secrets);
    logger.debug("chat_b ready", { webhook: parsed.shownUrl, username: parsed.username });
    return { config: parsed, client: createChatBClient(parsed), ...laneFor(parsed) };
  },
  notifyStart(ticket, ctx) {
    return deliver(renderStart(ticket, ctx.engine, { taskRunId: ctx.taskRunId }, identity(ctx.state.config)), ctx);
  },
  notifyComplete(ticket, result, ctx) {
    return deliver(renderComplete(ticket, result, { taskRunId: ctx.taskRunId }, identity(ctx.state.config)), ctx);
  },
  notify(message, ticket, ctx) {
    return deliver(renderNotify(message, ticket, { taskRunId: ctx.taskRunId }, identity(ctx.state.config)), ctx);
  },
});

function identity(config: ChatBConfig) {
  return { username: config.username, avatarUrl: config.avatarUrl };
}
