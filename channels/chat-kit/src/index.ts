/**
 * @errand/chat-kit: code shared by Errand's built-in chat channels
 * (`@errand/channel-chat-a`, `@errand/channel-chat-b`): ordered, paced
 * delivery with retries, a room's digest queue (a burst combined into digest
 * messages), link and escaped-text fitting for chat markup, and the check of
 * a credential's text. Internal to those channels: no stability
 * promise to anyone else (a plugin's author uses `@errand/channel-sdk/helpers`).
 * @packageDocumentation
 */
export { credentialTextProblem } from "./credential-text.js";
export {
  createDeliveryLane,
  type DeliveryLane,
  type DeliveryLaneOptions,
  type LaneAttempt,
  type LaneSendOptions,
  type Pacer,
} from "./delivery-lane.js";
export { createDigestQueue } from "./digest-queue.js";
export type { DigestQueue, DigestQueueOptions } from "./digest-queue-types.js";
export { DEFAULT_DIGEST_THRESHOLD, digestThresholdSchema } from "./digest-threshold.js";
export { type FitLinkOptions, fitLink, type LinkMarkup, shortUrlLabel } from "./fit-link.js";
export { coalesceProgress, describeEvents, type RoomEvent } from "./room-event.js";
export { createRoomHealth, type RoomHealth } from "./room-health.js";
export { safeHttpUrl } from "./safe-url.js";
export { truncateEscaped } from "./truncate-escaped.js";
