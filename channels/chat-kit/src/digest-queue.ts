import {
  CancelledError,
  type ChannelError,
  isChannelError,
  type Logger,
  type NotifyResult,
  RateLimitedError,
  toChannelError,
} from "@errand/channel-sdk";
import { sleep } from "@errand/channel-sdk/helpers";
import type { DigestQueue, DigestQueueOptions } from "./digest-queue-types.js";
import { coalesceProgress, describeEvents, type RoomEvent } from "./room-event.js";
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
  const { lane, key, name, logger } = options;
  const maxWaiting = options.maxWaiting ?? 10_000;
  const retryDelay = options.retryDelayMs ?? { first: 1000, max: 30_000 };
  const waiting: RoomEvent[] = [];
  const closing = new AbortController();
  let closed = false;
  let flushing = false;
  let busy = false;
  let current: Promise<unknown> = Promise.resolve();
  let failuresInARow = 0;
  const health = createRoomHealth(name);

  const send = (message: Message, signal: AbortSignal | undefined, log: Logger) =>
    health.track(
      lane.send(key, (attempt) => options.post(message, attempt), {
        signal,
        onRetry: ({ attempt, error, delayMs }) =>
          log.warn(`retrying ${options.request}`, {
            room: name,
            attempt,
            delayMs,
            code: error.code,
            error: error.message,
          }),
      }),
    );

  const accept = (event: RoomEvent): NotifyResult => {
    if (waiting.length >= maxWaiting) {
      throw new RateLimitedError(
        `${name}: ${waiting.length} notifications already wait for the room, the most this channel holds`,
        {
          hint: "the platform has not taken messages for a long time; check the channel's errors in the log",
          retryAfterMs: retryDelay.max,
        },
      );
    }
    waiting.push(event);
    startDrain();
    return {};
  };

  const startDrain = () => {
    if (busy || waiting.length === 0 || closing.signal.aborted) return;
    busy = true;
    current = drain().finally(() => {
      busy = false;
      startDrain();
    });
  };

  const takeBatch = (): { events: RoomEvent[]; message: Message } => {
    if (waiting.length > (flushing ? 1 : options.threshold)) {
      const shown = coalesceProgress(waiting);
      const digest = options.renderDigest(shown.map((s) => s.event));
      const last = shown[digest.taken - 1];
      // Progress left out before the last event shown is covered by a newer message of its run: it goes too.
      if (digest.taken >= 2 && last) return { events: waiting.splice(0, last.index + 1), message: digest.message };
    }
    const event = waiting.shift() as RoomEvent;
    return { events: [event], message: options.render(event) };
  };

  const settleFailure = async (events: RoomEvent[], error: ChannelError) => {
    if (closing.signal.aborted) return void waiting.unshift(...events);
    if (!(error.retryable || error.code === "ERR_DEADLINE_EXCEEDED")) {
      logger.error("notifications dropped: the platform refused their message, and would refuse it again", {
        room: name,
        code: error.code,
        error: error.message,
        hint: error.hint,
        ...describeEvents(events),
      });
      return;
    }
    waiting.unshift(...events);
    failuresInARow++;
    const backoff = Math.min(retryDelay.max, retryDelay.first * 2 ** (failuresInARow - 1));
    const delayMs = Math.max(backoff, lane.pacer.msUntilSlot(key));
    logger.warn("a message to the room failed; its notifications wait and are tried again", {
      room: name,
      code: error.code,
      error: error.message,
      waiting: waiting.length,
      retryInMs: delayMs,
    });
    await sleep(delayMs, closing.signal).catch(() => {});
  };

  async function drain(): Promise<void> {
    while (waiting.length > 0 && !closing.signal.aborted) {
      // Taking the batch only once the room's slot is due lets everything that arrived meanwhile join it.
      await sleep(lane.pacer.msUntilSlot(key), closing.signal).catch(() => {});
      if (closing.signal.aborted) return;
      let batch: { events: RoomEvent[]; message: Message } | undefined;
      try {
        batch = takeBatch();
        await send(batch.message, closing.signal, logger);
        failuresInARow = 0;
      } catch (error) {
        if (batch) await settleFailure(batch.events, toChannelError(error));
        else
          logger.error("a notification could not be rendered and is dropped", {
            room: name,
            error: toChannelError(error).message,
            ...describeEvents(waiting.splice(0, 1)),
          });
      }
    }
  }

  const sendAlone = (event: RoomEvent, signal: AbortSignal | undefined, log: Logger): Promise<NotifyResult> => {
    busy = true;
    const direct = (async (): Promise<NotifyResult> => {
      try {
        return { deliveryId: await send(options.render(event), signal, log) };
      } catch (error) {
        // The room is paused for longer than a call may wait: the event waits its turn instead of failing.
        if (isChannelError(error) && error.code === "ERR_RATE_LIMITED") return accept(event);
        throw error;
      } finally {
        busy = false;
        startDrain();
      }
    })();
    current = direct.catch(() => {});
    return direct;
  };

  const idle = async () => {
    while (busy || waiting.length > 0) {
      if (closing.signal.aborted) return;
      await current;
      startDrain();
    }
  };

  return {
    get waiting() {
      return waiting.length;
    },
    async submit(event, { signal, logger: log = logger } = {}) {
      for (;;) {
        if (closed) throw new CancelledError(`${name} is closed; the notification was not taken`);
        if (signal?.aborted) throw toChannelError(signal.reason);
        if (!busy && waiting.length === 0) return sendAlone(event, signal, log);
        if (health.healthy) return accept(event);
        if (!health.sending) throw health.failure();
        // The outcome of the send in progress tells whether the room is behind or failing.
        await health.waitForSend(signal);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      flushing = true;
      startDrain();
      const deadline = new AbortController();
      await Promise.race([idle(), sleep(options.flushMs ?? 250, deadline.signal).catch(() => {})]);
      deadline.abort();
      closing.abort(new CancelledError(`${name} is closing`));
      await current;
      if (waiting.length === 0) return;
      logger.error("notifications lost: the channel closed before the room could take them", {
        room: name,
        ...describeEvents(waiting.splice(0)),
      });
    },
  };
}
