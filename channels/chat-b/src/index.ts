/**
 * @errand/channel-chat-b: Errand's built-in chat_b channel (embeds through a
 * Discord-style incoming webhook). Load `chatB` in-process with
 * `loadChannel`, or run the package's bin `errand-channel-chat-b` as a plugin.
 * @packageDocumentation
 */
export { type ChatBClient, createChatBClient, type ExecutedMessage } from "./api-client.js";
export { type ChatBState, chatB, chatB as default } from "./channel.js";
export {
  type ChatBConfig,
  type ChatBSettings,
  chatBConfigSchema,
  DEFAULT_DIGEST_THRESHOLD,
  parseChatBConfig,
  resolveChatBWebhook,
} from "./config.js";
export { type RateLimitInfo, readRateLimit, WebhookBucket } from "./rate-limit.js";
export { renderCompleteEmbed } from "./render/complete.js";
export { digestLine, renderDigest } from "./render/digest.js";
export type { Embed, EmbedField } from "./render/embed.js";
export { escapeMarkdown, fitMarkdown, markdownLink, safeUrl } from "./render/escape.js";
export { BUDGET, COLORS, DISCORD_LIMITS } from "./render/limits.js";
export { type ChatBMessage, embedsLength, fitEmbeds } from "./render/message.js";
export { renderNotifyEmbed } from "./render/notify.js";
export { type Identity, renderComplete, renderNotify, renderStart, toMessage } from "./render/payload.js";
export { renderStartEmbed } from "./render/start.js";
export { VERSION } from "./version.js";
