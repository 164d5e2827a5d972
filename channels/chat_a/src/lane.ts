import { createThrottle, type Throttle } from "@errand/channel-sdk";
import type { ChatAConfig } from "./config.js";
import { createSerialQueue, type SerialQueue } from "./serial-queue.js";

/** Everything that paces the messages to one channel. */
export interface Lane {
  /** Spaces messages `minIntervalMs` apart and holds back after a 429. */
  throttle: Throttle;
  /** One delivery at a time, in order. */
  queue: SerialQueue;
  /** Until when the platform asked us to hold back (a 429's Retry-After). */
  pausedUntil: number;
  /** When the last throttle slot was taken (the throttle cannot tell when its next one is). */
  lastSlotAt: number;
  minIntervalMs: number;
}

// Instances in one process that post to the same channel share its pace.
const lanes = new Map<string, Lane>();

/** The lane of `config`'s channel, shared by every instance in this process. */
export function laneFor(config: ChatAConfig): Lane {
  const key = `${config.apiBaseUrl}|${config.channelId}|${config.minIntervalMs}`;
  let lane = lanes.get(key);
  if (!lane) {
    lane = {
      throttle: createThrottle({ intervalMs: config.minIntervalMs }),
      queue: createSerialQueue(),
      pausedUntil: 0,
      lastSlotAt: 0,
      minIntervalMs: config.minIntervalMs,
    };
    lanes.set(key, lane);
  }
  return lane;
}

/** Milliseconds until the lane's next message may leave. */
export function msUntilSlot(lane: Lane, now = Date.now()): number {
  return Math.max(0, lane.lastSlotAt + lane.minIntervalMs - now, lane.pausedUntil - now);
}
