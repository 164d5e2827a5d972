import {
  CancelledError,
  isChannelError,
  type Logger,
  type NotifyResult,
  RateLimitedError,
  toChannelError,
} from "@errand/channel-sdk";
import { sleep } from "@errand/channel-sdk/helpers";
import { type QueueState, sendToRoom, startDrain } from "./digest-drain.js";
import type { DigestQueue, DigestQueueOptions } from "./digest-queue-types.js";
import { describeEvents, type RoomEvent } from "./room-event.js";
import { createRoomHealth } from "./room-health.js";

/**
 * Creates a room's digest queue. A call never waits behind other messages:
 * when the room is behind (and its platform is up), the event is accepted
 * into the queue (in memory)
 * and a single sender drains it at the lane's pace. When more than
 * `threshold` events wait at the moment the sender may send, it sends one
 * digest of them instead of the first alone, so a burst far above the
 * platform's rate is reported in full in a few messages. A digest shows the
 * latest progress of each run only, and none for a run it reports finished.
 *
 * Failed sends of waiting events: rate limits (after their Retry-After),
 * outages and timeouts are tried again with backoff, the events kept in
 * order; a refusal that cannot pass on a retry (bad token, channel not
 * found, invalid message) drops the events of that message and logs them at
 * `error`.
 */
export function createDigestQueue<Message>(options: DigestQueueOptions<Message>): DigestQueue {
  const { name, logger } = options;
  const state: QueueState<Message> = {
    options,
    waiting: [],
    closing: new AbortController(),
    health: createRoomHealth(name),
    retryDelay: options.retryDelayMs ?? { first: 1000, max: 30_000 },
    flushing: false,
    busy: false,
    current: Promise.resolve(),
    failuresInARow: 0,
  };
  const { waiting, health } = state;
  let closed = false;

  return {
    get waiting() {
      return waiting.length;
    },
    async submit(event, call = {}) {
      const { signal } = call;
      // The call's logger (the runtime's ctx.logger, made on first read) only if a retry is logged.
      const log = () => call.logger ?? logger;
      for (;;) {
        if (closed) throw new CancelledError(`${name} is closed; the notification was not taken`);
        if (signal?.aborted) throw toChannelError(signal.reason);
        if (!state.busy && waiting.length === 0) return sendAlone(state, event, signal, log);
        if (health.healthy) return accept(state, event);
        if (!health.sending) {
          // Nothing waits: the sender is only finishing after a refused message, which says nothing of the room.
          if (waiting.length === 0) {
            await state.current;
            continue;
          }
          throw health.failure();
        }
        // The outcome of the send in progress tells whether the room is behind or failing.
        await health.waitForSend(signal);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await flushAndStop(state);
    },
  };
}

/** Queues `event` for the sender; fails with RateLimitedError when the queue holds the most it may. */
function accept<Message>(state: QueueState<Message>, event: RoomEvent): NotifyResult {
  const { waiting, options } = state;
  if (waiting.length >= (options.maxWaiting ?? 10_000)) {
    throw new RateLimitedError(
      `${options.name}: ${waiting.length} notifications already wait for the room, the most this channel holds`,
      {
        hint: "the platform has not taken messages for a long time; check the channel's errors in the log",
        retryAfterMs: state.retryDelay.max,
      },
    );
  }
  waiting.push(event);
  startDrain(state);
  return {};
}

/** Sends `event`'s own message while the room is idle, answering with the platform's result or error. */
function sendAlone<Message>(
  state: QueueState<Message>,
  event: RoomEvent,
  signal: AbortSignal | undefined,
  log: () => Logger,
): Promise<NotifyResult> {
  state.busy = true;
  const direct = (async (): Promise<NotifyResult> => {
    try {
      return { deliveryId: await sendToRoom(state, state.options.render(event), signal, log) };
    } catch (error) {
      // The room is paused for longer than a call may wait: the event waits its turn instead of failing.
      if (isChannelError(error) && error.code === "ERR_RATE_LIMITED") return accept(state, event);
      throw error;
    } finally {
      state.busy = false;
      startDrain(state);
    }
  })();
  state.current = direct.catch(() => {});
  return direct;
}

/** Sends what waits within `flushMs` (as digests of any two), then stops the sender and logs what was lost. */
async function flushAndStop<Message>(state: QueueState<Message>): Promise<void> {
  const { options, waiting } = state;
  state.flushing = true;
  startDrain(state);
  const deadline = new AbortController();
  await Promise.race([idle(state), sleep(options.flushMs ?? 250, deadline.signal).catch(() => {})]);
  deadline.abort();
  state.closing.abort(new CancelledError(`${options.name} is closing`));
  await state.current;
  if (waiting.length === 0) return;
  options.logger.error("notifications lost: the channel closed before the room could take them", {
    room: options.name,
    ...describeEvents(waiting.splice(0)),
  });
}

/** Resolves once nothing is being sent and nothing waits, or the queue is closing. */
async function idle<Message>(state: QueueState<Message>): Promise<void> {
  while (state.busy || state.waiting.length > 0) {
    if (state.closing.signal.aborted) return;
    await state.current;
    startDrain(state);
  }
}
