export { webhookPost } from "./channel.js";
export {
  parseConfig,
  resolveWebhookUrl,
  type WebhookPostConfig,
  type WebhookPostSettings,
  webhookPostConfigSchema,
} from "./config.js";
export { completePayload, notifyPayload, startPayload, type WebhookPayload } from "./payload.js";
