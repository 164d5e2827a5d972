import { createDeliveryLane, type DeliveryLane } from "@errand/chat-kit";
import type { ChatAConfig } from "./config.js";

// Instances in one process that post to the same channel share its pace.
const lanes = new Map<string, DeliveryLane>();

/**
 * The delivery lane of `config`'s channel, shared by every instance in this
 * process: one message at a time, in order, `minIntervalMs` apart counted
 * from the previous answer (the platform sees arrival times, and a slow
 * first request followed by a fast one would otherwise arrive too close).
 */
export function laneFor(config: ChatAConfig): DeliveryLane {
  const key = `${config.apiBaseUrl}|${config.channelId}|${config.minIntervalMs}`;
  const lane =
    lanes.get(key)
    ?? createDeliveryLane({ intervalMs: config.minIntervalMs, name: `chat_a: channel ${config.channelId}` });
  lanes.set(key, lane);
  return lane;
}
