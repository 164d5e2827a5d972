import { defineChannel } from "@errand/channel-sdk";
import { createDeliveryLane, type DeliveryLane } from "@errand/chat-kit";
import { createChatBClient } from "./api-client.js";
import { type ChatBConfig, chatBConfigSchema, resolveChatBWebhook } from "./config.js";
import { type ChatBState, deliver } from "./deliver.js";
import { WebhookBucket } from "./rate-limit.js";
import { renderComplete, renderNotify, renderStart } from "./render/payload.js";
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
 * Config: `webhook_url_secret` (name of the secret holding the webhook URL),
 * optional `username` and `avatar_url`.
 */
export const chatB = defineChannel({
  name: "chat_b",
  version: VERSION,
  interfaceVersions: [1],
  configSchema: chatBConfigSchema,
  init(settings, secrets, { logger }): ChatBState {
    const parsed = resolveChatBWebhook(settings, secrets);
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
