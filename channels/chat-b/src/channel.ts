import { defineChannel } from "@errand/channel-sdk";
import { createDeliveryLane, type DeliveryLane } from "@errand/chat-kit";
import { createChatBClient } from "./api-client.js";
import { type ChatBConfig, chatBConfigSchema, resolveChatBWebhook } from "./config.js";
import { type ChatBState, createRoom } from "./deliver.js";
import { WebhookBucket } from "./rate-limit.js";
import { VERSION } from "./version.js";

export type { ChatBState };

// Instances in one process that share a webhook share its bucket and lane.
const lanes = new Map<string, { bucket: WebhookBucket; lane: DeliveryLane }>();

function laneFor(config: ChatBConfig) {
  const key = `${config.shownUrl}|${config.webhookId}`;
  const found = lanes.get(key);
  if (found) return found;
  const bucket = new WebhookBucket();
  const entry = { bucket, lane: createDeliveryLane({ pacer: bucket, name: "chat_b: the webhook" }) };
  lanes.set(key, entry);
  return entry;
}

/**
 * The chat_b channel: embeds through a chat platform's incoming webhook
 * (a Discord-style webhook URL), within the webhook's rate limits.
 *
 * When more notifications come than the webhook takes, calls are answered
 * once their notification is queued, and the queue is sent as digest
 * messages (see `createDigestQueue`).
 *
 * Config: `webhook_url_secret` (name of the secret holding the webhook URL),
 * optional `username`, `avatar_url` and `digest_threshold`.
 */
export const chatB = defineChannel({
  name: "chat_b",
  version: VERSION,
  interfaceVersions: [1],
  configSchema: chatBConfigSchema,
  init(settings, secrets, { logger }): ChatBState {
    const parsed = resolveChatBWebhook(settings, secrets);
    logger.debug("chat_b ready", { webhook: parsed.shownUrl, username: parsed.username });
    const client = createChatBClient(parsed);
    const { bucket, lane } = laneFor(parsed);
    return { config: parsed, client, bucket, lane, room: createRoom(parsed, client, lane, bucket, logger) };
  },
  notifyStart(ticket, ctx) {
    return ctx.state.room.submit({ kind: "start", runId: ctx.taskRunId, ticket, engine: ctx.engine }, ctx);
  },
  notifyComplete(ticket, result, ctx) {
    return ctx.state.room.submit({ kind: "complete", runId: ctx.taskRunId, ticket, result }, ctx);
  },
  notify(message, ticket, ctx) {
    return ctx.state.room.submit({ kind: "progress", runId: ctx.taskRunId, ticket, message }, ctx);
  },
  close(state) {
    return state.room.close();
  },
});
