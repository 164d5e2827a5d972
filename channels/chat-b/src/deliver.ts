import type { NotifyContext, NotifyResult } from "@errand/channel-sdk";
import { httpErrorResponse } from "@errand/channel-sdk/helpers";
import type { DeliveryLane } from "@errand/chat-kit";
import type { ChatBClient } from "./api-client.js";
import type { ChatBConfig } from "./config.js";
import type { WebhookBucket } from "./rate-limit.js";
import type { ChatBMessage } from "./render/message.js";

/** Per-instance state of a chat_b channel. */
export interface ChatBState {
  config: ChatBConfig;
  client: ChatBClient;
  /** The webhook's rate-limit bucket, from the platform's headers; it paces `lane`. */
  bucket: WebhookBucket;
  /** One request at a time per webhook, in order, paced by `bucket`. */
  lane: DeliveryLane;
}

/**
 * Delivers one message through the webhook's lane: in order, when the bucket
 * allows, noting every answer's rate-limit headers; retries 429s (after
 * `retry_after`) and transient failures only while an attempt still fits in
 * the 4 s budget, so the call ends with the platform's error, not a deadline.
 */
export async function deliver(message: ChatBMessage, ctx: NotifyContext<ChatBState>): Promise<NotifyResult> {
  const { config, client, bucket, lane } = ctx.state;
  const executed = await lane.send(
    config.webhookId,
    async ({ signal, timeoutMs }) => {
      try {
        const result = await client.execute(message, signal, timeoutMs);
        bucket.update(result.response.headers);
        return result;
      } catch (error) {
        // A refused answer (a 429 above all) describes the bucket too.
        const response = httpErrorResponse(error);
        if (response) bucket.update(response.headers);
        throw error;
      }
    },
    {
      signal: ctx.signal,
      onRetry: ({ attempt, error, delayMs }) => ctx.logger.warn("retrying the webhook", { attempt, delayMs, code: error.code, error: error.message }),
    },
  );
  return { deliveryId: executed.id };
}
