/**
 * @errand/channel-chat-a: Errand's built-in chat_a channel (Block Kit
 * messages through Slack's `chat.postMessage`). Load `chatA` in-process with
 * `loadChannel`, or run the package's bin `errand-channel-chat-a` as a plugin.
 * @packageDocumentation
 */
export { type ChatAClient, createChatAClient, type PostedMessage, postMessageBody } from "./api-client.js";
export { type ChatAState, chatA, chatA as default } from "./channel.js";
export {
  type ChatAConfig,
  type ChatASettings,
  chatAConfigSchema,
  DEFAULT_API_BASE_URL,
  DEFAULT_DIGEST_THRESHOLD,
  DEFAULT_MIN_INTERVAL_MS,
  parseChatAConfig,
  resolveChatAToken,
} from "./config.js";
export type { Block, ChatAMessage, TextObject } from "./render/blocks.js";
export { renderComplete } from "./render/complete.js";
export { digestLine, renderDigest } from "./render/digest.js";
export { escapeMrkdwn, fitMrkdwn, mrkdwnLink, safeUrl } from "./render/escape.js";
export { fitMessage } from "./render/fit.js";
export { BUDGET, SLACK_LIMITS } from "./render/limits.js";
export { renderNotify } from "./render/notify.js";
export { renderStart } from "./render/start.js";
export { type SlackErrorBody, slackError } from "./slack-errors.js";
export { VERSION } from "./version.js";
