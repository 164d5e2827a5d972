import type { Logger } from "@errand/channel-sdk";
import { httpErrorResponse } from "@errand/channel-sdk/helpers";
import { createDigestQueue, type DeliveryLane, type DigestQueue, type RoomEvent } from "@errand/chat-kit";
import type { ChatBClient } from "./api-client.js";
import type { ChatBConfig } from "./config.js";
import type { WebhookBucket } from "./rate-limit.js";
import { renderDigest } from "./render/digest.js";
import type { ChatBMessage } from "./render/message.js";
import { type Identity, renderComplete, renderNotify, renderStart } from "./render/payload.js";

/** Per-instance state of a chat_b channel. */
export interface ChatBState {
  config: ChatBConfig;
  client: ChatBClient;
  /** The webhook's rate-limit bucket, from the platform's headers; it paces `lane`. */
  bucket: WebhookBucket;
  /** One request at a time per webhook, in order, paced by `bucket`. */
  lane: DeliveryLane;
  /** The webhook's notifications: each its own message while the webhook keeps up, digests when it falls behind. */
  room: DigestQueue;
}

/** The message of one notification, as it is sent when the webhook keeps up. */
export function renderEvent(event: RoomEvent, identity: Identity = {}): ChatBMessage {
  const ctx = { taskRunId: event.runId };
  if (event.kind === "start") return renderStart(event.ticket, event.engine, ctx, identity);
  if (event.kind === "complete") return renderComplete(event.ticket, event.result, ctx, identity);
  return renderNotify(event.message, event.ticket, ctx, identity);
}

/**
 * The webhook's room: each message goes through the webhook's lane (in
 * order, when the bucket allows, noting every answer's rate-limit headers,
 * a refused one's too; 429s and transient failures retried within the 4 s
 * budget), and while the webhook is behind, calls are answered once their
 * notification is queued (see `createDigestQueue`).
 */
export function createRoom(
  config: ChatBConfig,
  client: ChatBClient,
  lane: DeliveryLane,
  bucket: WebhookBucket,
  logger: Logger,
): DigestQueue {
  const identity: Identity = { username: config.username, avatarUrl: config.avatarUrl };
  return createDigestQueue<ChatBMessage>({
    lane,
    key: config.webhookId,
    name: "chat_b: the webhook",
    request: "the webhook",
    threshold: config.digestThreshold,
    render: (event) => renderEvent(event, identity),
    renderDigest: (events) => renderDigest(events, identity),
    async post(message, { signal, timeoutMs }) {
      try {
        const result = await client.execute(message, signal, timeoutMs);
        bucket.update(result.response.headers);
        return result.id;
      } catch (error) {
        // A refused answer (a 429 above all) describes the bucket too.
        const response = httpErrorResponse(error);
        if (response) bucket.update(response.headers);
        throw error;
      }
    },
    logger,
  });
}
