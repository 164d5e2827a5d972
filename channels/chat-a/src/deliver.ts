import type { Logger } from "@errand/channel-sdk";
import { createDigestQueue, type DeliveryLane, type DigestQueue, type RoomEvent } from "@errand/chat-kit";
import type { ChatAClient } from "./api-client.js";
import type { ChatAConfig } from "./config.js";
import type { ChatAMessage } from "./render/blocks.js";
import { renderComplete } from "./render/complete.js";
import { renderDigest } from "./render/digest.js";
import { renderNotify } from "./render/notify.js";
import { renderStart } from "./render/start.js";

/** Per-instance state of a chat_a channel. */
export interface ChatAState {
  config: ChatAConfig;
  client: ChatAClient;
  /** Orders and paces the messages to the channel (see `laneFor`). */
  lane: DeliveryLane;
  /** The channel's notifications: each its own message while the channel keeps up, digests when it falls behind. */
  room: DigestQueue;
}

/** The message of one notification, as it is sent when the channel keeps up. */
export function renderEvent(event: RoomEvent): ChatAMessage {
  const ctx = { taskRunId: event.runId };
  if (event.kind === "start") return renderStart(event.ticket, event.engine, ctx);
  if (event.kind === "complete") return renderComplete(event.ticket, event.result, ctx);
  return renderNotify(event.message, event.ticket, ctx);
}

/**
 * The channel's room: messages go through the lane (in order, paced, retried
 * within the 4 s budget; see `createDeliveryLane`), and while the channel is
 * behind, calls are answered once their notification is queued (see
 * `createDigestQueue`).
 */
export function createRoom(config: ChatAConfig, client: ChatAClient, lane: DeliveryLane, logger: Logger): DigestQueue {
  return createDigestQueue<ChatAMessage>({
    lane,
    key: config.channelId,
    name: `chat_a: channel ${config.channelId}`,
    request: "chat.postMessage",
    threshold: config.digestThreshold,
    render: renderEvent,
    renderDigest,
    async post(message, { signal, timeoutMs }) {
      const posted = await client.postMessage(message, signal, timeoutMs);
      return posted.ts ? `${posted.channel}/${posted.ts}` : undefined;
    },
    logger,
  });
}
