import { defineChannel } from "@errand/channel-sdk";
import { createChatAClient } from "./api-client.js";
import { chatAConfigSchema, resolveChatAToken } from "./config.js";
import { type ChatAState, createRoom } from "./deliver.js";
import { laneFor } from "./lane.js";
import { VERSION } from "./version.js";

export type { ChatAState };

/**
 * The chat_a channel: Block Kit messages through a chat platform's
 * `chat.postMessage` (Slack's web API), one message per second per channel.
 *
 * When more notifications come than the channel takes, calls are answered
 * once their notification is queued, and the queue is sent as digest
 * messages (see `createDigestQueue`).
 *
 * Config: `channel_id` (ID, not name), `token_secret` (name of the secret with
 * the bot token), optional `api_base_url` (default https://slack.com/api),
 * `min_interval_ms` and `digest_threshold`.
 */
export const chatA = defineChannel({
  name: "chat_a",
  version: VERSION,
  interfaceVersions: [1],
  configSchema: chatAConfigSchema,
  init(settings, secrets, { logger }): ChatAState {
    const parsed = resolveChatAToken(settings, secrets);
    logger.debug("chat_a ready", {
      channelId: parsed.channelId,
      apiBaseUrl: parsed.apiBaseUrl,
      minIntervalMs: parsed.minIntervalMs,
      digestThreshold: parsed.digestThreshold,
    });
    const client = createChatAClient(parsed, logger);
    const lane = laneFor(parsed);
    return { config: parsed, client, lane, room: createRoom(parsed, client, lane, logger) };
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
