export { webhookPost } from "./channel.js";
export { parseConfig, type WebhookPostConfig } from "./config.js";
export { completePayload, notifyPayload, startPayload, type WebhookPayload } from "./payload.js";
