import type { ChannelSlot } from "./channel-slots.js";
import { type Delivery, type DeliveryContext, deliver } from "./deliver.js";

/** One notification for every channel: what to send, what cancels it, and who waits for it. */
export interface LaneJob {
  delivery: Delivery;
  /** Aborts the calls (shutdown, or the loop giving up on the event). */
  signal: AbortSignal;
  /** Channels not yet done with it: sent, failed, cancelled or dropped. */
  remaining: number;
  /** Called once every channel is done with it. */
  done: (() => void) | undefined;
}

/**
 * What one run has for one channel. A run's notifications always go start,
 * progress, complete, so three places keep them in order without a list:
 * at most one of each waits while a call is in flight, and the completion
 * waits for at most two calls before its own.
 */
interface Lane {
  busy: boolean;
  /** The completion was queued: later progress is stale. */
  ended: boolean;
  start: LaneJob | undefined;
  progress: LaneJob | undefined;
  complete: LaneJob | undefined;
}

/** Every channel's own ordered queue of each run's notifications. */
export interface ChannelLanes {
  /**
   * Queues `job` for every channel. A progress message still waiting on a
   * channel is replaced by a newer one, so a slow channel gets the latest
   * line, never a backlog; progress queued after the completion is dropped.
   */
  push(runId: string, job: LaneJob): void;
  /** Settles once no channel has a call in flight or waiting. */
  idle(): Promise<void>;
}

function take(lane: Lane): LaneJob | undefined {
  const job = lane.start ?? lane.progress ?? lane.complete;
  if (job === lane.start) lane.start = undefined;
  else if (job === lane.progress) lane.progress = undefined;
  else lane.complete = undefined;
  return job;
}

function release(job: LaneJob): void {
  job.remaining -= 1;
  if (job.remaining === 0) job.done?.();
}

/**
 * Creates the lanes: each channel sends a run's notifications one at a time
 * and in order, each call bounded on its own, so a channel that hangs delays
 * its own messages and nobody else's.
 */
export function createChannelLanes(slots: readonly ChannelSlot[], context: DeliveryContext): ChannelLanes {
  const runs = new Map<string, Lane[]>();
  let busy = 0;
  let onIdle: (() => void) | undefined;

  const drain = async (slot: ChannelSlot, lane: Lane, runId: string, lanes: Lane[]): Promise<void> => {
    try {
      for (let job = take(lane); job !== undefined; job = take(lane)) {
        // deliver() never rejects, and settles within the call's bound whatever the channel does.
        await deliver(slot, job.delivery, context, job.signal);
        release(job);
      }
    } finally {
      lane.busy = false;
      if (lane.ended && lanes.every((l) => !l.busy)) runs.delete(runId);
      busy -= 1;
      if (busy === 0) onIdle?.();
    }
  };

  return {
    push(runId, job) {
      let lanes = runs.get(runId);
      if (lanes === undefined) {
        lanes = slots.map((): Lane => ({ busy: false, ended: false, start: undefined, progress: undefined, complete: undefined }));
        runs.set(runId, lanes);
      }
      const operation = job.delivery.operation;
      for (let i = 0; i < slots.length; i++) {
        const lane = lanes[i]!;
        if (operation === "notify") {
          if (lane.ended) {
            release(job);
            continue;
          }
          if (lane.progress !== undefined) release(lane.progress);
          lane.progress = job;
        } else if (operation === "notify_start") {
          lane.start = job;
        } else {
          lane.ended = true;
          lane.complete = job;
        }
        if (!lane.busy) {
          lane.busy = true;
          busy += 1;
          void drain(slots[i]!, lane, runId, lanes);
        }
      }
    },
    idle() {
      if (busy === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const previous = onIdle;
        onIdle = () => {
          onIdle = undefined;
          previous?.();
          resolve();
        };
      });
    },
  };
}
