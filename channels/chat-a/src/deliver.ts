import type { NotifyContext, NotifyResult } from "@errand/channel-sdk";
import type { DeliveryLane } from "@errand/chat-kit";
import type { ChatAClient } from "./api-client.js";
import type { ChatAConfig } from "./config.js";
import type { ChatAMessage } from "./render/blocks.js";

/** Per-instance state of a chat_a channel. */
export interface ChatAState {
  config: ChatAConfig;
  client: ChatAClient;
  /** Orders and paces the messages to the channel (see `laneFor`). */
  lane: DeliveryLane;
}

/**
 * Delivers one message through the channel's lane: in order, paced, and
 * retried (transient failures, and 429s after their `Retry-After`) only while
 * an attempt still fits in the 4 s budget, so the call ends with the
 * platform's error, not a deadline; a `Retry-After` longer than the call may
 * wait fails at once without sending.
 */
export async function deliver(message: ChatAMessage, ctx: NotifyContext<ChatAState>): Promise<NotifyResult> {
  const { config, client, lane } = ctx.state;
  const posted = await lane.send(config.channelId, ({ signal, timeoutMs }) => client.postMessage(message, signal, timeoutMs), {
    signal: ctx.signal,
    onRetry: ({ attempt, error, delayMs }) => ctx.logger.warn("retrying chat.postMessage", { attempt, delayMs, code: error.code, error: error.message }),
  });
  return { deliveryId: posted.ts ? `${posted.channel}/${posted.ts}` : undefined };
}
