import { defineChannel } from "@errand/channel-sdk";
import { createChatAClient } from "./api-client.js";
import { chatAConfigSchema, resolveChatAToken } from "./config.js";
import { type ChatAState, deliver } from "./deliver.js";
import { laneFor } from "./lane.js";
import { renderComplete } from "./render/complete.js";
import { renderNotify } from "./render/notify.js";
import { renderStart } from "./render/start.js";
import { VERSION } from "./version.js";

export type { ChatAState };

/**
 * The chat_a channel: Block Kit messages through a chat platform's
 * `chat.postMessage` (Slack's web API), one message per second per channel.
 *
 * Config: `channel_id` (ID, not name), `token_secret` (name of the secret with
 * the bot token), optional `api_base_url` (default https://slack.com/api).
 */
export const chatA = defineChannel({
  name: "chat_a",
  version: VERSION,
  interfaceVersions: [1],
  configSchema: chatAConfigSchema,
  init(settings, secrets, { logger }): ChatAState {
    const parsed = resolveChatAToken(settings, secrets);
    logger.debug("chat_a ready", { channelId: parsed.channelId, apiBaseUrl: parsed.apiBaseUrl, minIntervalMs: parsed.minIntervalMs });
    return { config: parsed, client: createChatAClient(parsed, logger), lane: laneFor(parsed) };
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
