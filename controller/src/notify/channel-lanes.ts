import type { ChannelSlot } from "./channel-slots.js";
import { type Delivery, type DeliveryContext, deliver } from "./deliver.js";

/** One notification for every channel: what to send, what cancels it, and who waits for it. */
export interface LaneJob {
  delivery: Delivery;
  /** Aborts the calls (shutdown, or the loop giving up on the event). */
  signal: AbortSignal;
  /** Channels not yet done with it: sent, failed, cancelled or dropped. */
  remaining: number;
  /** When it was queued, ms since the epoch (set by push). */
  queuedAt?: number;
  /** Called once every channel is done with it. */
  done: (() => void) | undefined;
}

/**
 * What one run has for one channel. A run's notifications always go start,
 * progress..., complete, so three places keep them in order: at most one
 * start and one completion, and the progress messages in arrival order.
 */
interface Lane {
  busy: boolean;
  /** The completion was queued: later progress is stale. */
  ended: boolean;
  start: LaneJob | undefined;
  progress: LaneJob[];
  complete: LaneJob | undefined;
}

/** Every channel's own ordered queue of each run's notifications. */
export interface ChannelLanes {
  /**
   * Queues `job` for every channel. A channel that is behind gets the latest
   * progress line, not a backlog: a waiting line older than the call bound
   * is dropped when a newer one waits too, and once the completion is
   * queued only the latest waiting line goes before it. Progress queued
   * after the completion is dropped.
   */
  push(runId: string, job: LaneJob): void;
  /** Settles once no channel has a call in flight or waiting. */
  idle(): Promise<void>;
}

function release(job: LaneJob): void {
  job.remaining -= 1;
  if (job.remaining === 0) job.done?.();
}

/** Drops the waiting progress lines queued `staleMs` ago or earlier, while a newer one waits: 0 keeps only the latest. */
function dropStale(lane: Lane, staleMs: number): void {
  const waiting = lane.progress;
  const now = Date.now();
  while (waiting.length > 1 && now - waiting[0]!.queuedAt! >= staleMs) release(waiting.shift()!);
}

function take(lane: Lane, staleMs: number): LaneJob | undefined {
  if (lane.start !== undefined) {
    const job = lane.start;
    lane.start = undefined;
    return job;
  }
  dropStale(lane, staleMs);
  if (lane.progress.length > 0) return lane.progress.shift();
  const job = lane.complete;
  lane.complete = undefined;
  return job;
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
      for (let job = take(lane, context.timeoutMs); job !== undefined; job = take(lane, context.timeoutMs)) {
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
        lanes = slots.map(
          (): Lane => ({ busy: false, ended: false, start: undefined, progress: [], complete: undefined }),
        );
        runs.set(runId, lanes);
      }
      const operation = job.delivery.operation;
      job.queuedAt = Date.now();
      for (let i = 0; i < slots.length; i++) {
        const lane = lanes[i]!;
        if (operation === "notify") {
          if (lane.ended) {
            release(job);
            continue;
          }
          lane.progress.push(job);
        } else if (operation === "notify_start") {
          // One start per run; should a second come, the first one still waiting is done with, not forgotten.
          if (lane.start !== undefined) release(lane.start);
          lane.start = job;
        } else {
          lane.ended = true;
          dropStale(lane, 0);
          if (lane.complete !== undefined) release(lane.complete);
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
