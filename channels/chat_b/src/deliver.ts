import {
  type ChannelError,
  createChannelError,
  isChannelError,
  type NotifyContext,
  type NotifyResult,
  RateLimitedError,
  retry,
  toChannelError,
} from "@errand/channel-sdk";
import type { ChatBClient } from "./api-client.js";
import type { ChatBConfig } from "./config.js";
import type { WebhookBucket } from "./rate-limit.js";
import type { ChatBMessage } from "./render/message.js";
import type { SerialQueue } from "./serial-queue.js";

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
export const RETRY_BUDGET_MS = 4000;
/** Longest single attempt; shorter when less of the budget is left. */
const ATTEMPT_TIMEOUT_MS = 2000;
/** An attempt with less time than this is not worth starting. */
const MIN_ATTEMPT_MS = 300;

/**
 * Delivers one message: waits for the webhook's turn (in order, abortable)
 * and for its bucket, sends, notes the rate-limit headers; retries 429s
 * (after `retry_after`) and transient failures only while an attempt still
 * fits in the budget, so the call ends with the platform's error, not a deadline.
 */
export async function deliver(message: ChatBMessage, ctx: NotifyContext<ChatBState>): Promise<NotifyResult> {
  const { client, bucket, queue } = ctx.state;
  const release = await queue.acquire(ctx.signal);
  let last: ChannelError | undefined;
  let gaveUp = false;
  try {
    const executed = await retry(
      async ({ signal, remainingMs, attempt }) => {
        const waitMs = bucket.waitMs();
        // Waiting longer than the call may last would only end in a deadline error.
        if (waitMs >= remainingMs) {
          gaveUp = true;
          throw new RateLimitedError(`chat_b: the webhook is rate-limited for another ${waitMs} ms, longer than the call may wait`, {
            retryAfterMs: waitMs,
            hint: "the platform asked to slow down; the message was not sent",
            cause: last,
          });
        }
        const timeoutMs = Math.min(ATTEMPT_TIMEOUT_MS, remainingMs - waitMs - 100);
        if (last && timeoutMs < MIN_ATTEMPT_MS) {
          gaveUp = true;
          throw createChannelError(last.code, `gave up after ${attempt - 1} attempts: no time left for another; last error: ${last.message}`, {
            cause: last,
            hint: last.hint,
            retryAfterMs: last.retryAfterMs,
          });
        }
        await bucket.ready(signal);
        bucket.sending();
        try {
          const result = await client.execute(message, signal, Math.max(timeoutMs, MIN_ATTEMPT_MS));
          bucket.update(result.response.headers);
          return result;
        } catch (error) {
          last = toChannelError(error);
          if (isChannelError(error) && error.retryAfterMs !== undefined) bucket.pause(error.retryAfterMs);
          throw error;
        }
      },
      {
        signal: ctx.signal,
        budgetMs: RETRY_BUDGET_MS,
        shouldRetry: (error) => !gaveUp && error.retryable,
        onRetry: ({ attempt, error, delayMs }) =>
          ctx.logger.warn("retrying the webhook", { attempt, delayMs, code: error.code, error: error.message }),
      },
    );
    return { deliveryId: executed.id };
  } finally {
    release();
  }
}
