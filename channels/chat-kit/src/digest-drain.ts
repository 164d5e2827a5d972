import { type ChannelError, type Logger, toChannelError } from "@errand/channel-sdk";
import { sleep } from "@errand/channel-sdk/helpers";
import type { DigestQueueOptions } from "./digest-queue-types.js";
import { coalesceProgress, describeEvents, type RoomEvent } from "./room-event.js";
import type { RoomHealth } from "./room-health.js";

/** A room queue's state, shared by the calls that submit events and the single sender that drains them. */
export interface QueueState<Message> {
  readonly options: DigestQueueOptions<Message>;
  /** Events accepted and not yet sent, oldest first. */
  readonly waiting: RoomEvent[];
  /** Aborted when the queue closes: the sender stops and its waits end. */
  readonly closing: AbortController;
  readonly health: RoomHealth;
  readonly retryDelay: { first: number; max: number };
  /** Set by `close`: from then on any two waiting events go as a digest. */
  flushing: boolean;
  /** True while a send (the sender's or a call's own) is in progress. */
  busy: boolean;
  /** The send in progress, never rejected. */
  current: Promise<unknown>;
  failuresInARow: number;
}

/**
 * Sends one message through the room's lane, which paces and retries it, and
 * records the outcome in the room's health. `log` is asked for the logger only
 * when a retry is logged: a call's logger is made on first use, and most sends
 * never retry.
 */
export function sendToRoom<Message>(
  state: QueueState<Message>,
  message: Message,
  signal: AbortSignal | undefined,
  log: () => Logger,
): Promise<string | undefined> {
  const { options } = state;
  const { lane, key, name } = options;
  return state.health.track(
    lane.send(key, (attempt) => options.post(message, attempt), {
      signal,
      onRetry: ({ attempt, error, delayMs }) =>
        log().warn(`retrying ${options.request}`, {
          room: name,
          attempt,
          delayMs,
          code: error.code,
          error: error.message,
        }),
    }),
  );
}

/** Starts the sender unless it runs already, nothing waits, or the queue is closing. */
export function startDrain<Message>(state: QueueState<Message>): void {
  if (state.busy || state.waiting.length === 0 || state.closing.signal.aborted) return;
  state.busy = true;
  state.current = drain(state).finally(() => {
    state.busy = false;
    startDrain(state);
  });
}

/** Sends what waits, one message per slot of the room, until nothing waits or the queue closes. */
async function drain<Message>(state: QueueState<Message>): Promise<void> {
  const { lane, key, name, logger } = state.options;
  const { waiting, closing } = state;
  while (waiting.length > 0 && !closing.signal.aborted) {
    // Taking the batch only once the room's slot is due lets everything that arrived meanwhile join it.
    await sleep(lane.pacer.msUntilSlot(key), closing.signal).catch(() => {});
    if (closing.signal.aborted) return;
    let batch: { events: RoomEvent[]; message: Message } | undefined;
    try {
      batch = takeBatch(state);
      await sendToRoom(state, batch.message, closing.signal, () => logger);
      state.failuresInARow = 0;
    } catch (error) {
      if (batch) await settleFailure(state, batch.events, toChannelError(error));
      else
        logger.error("a notification could not be rendered and is dropped", {
          room: name,
          error: toChannelError(error).message,
          ...describeEvents(waiting.splice(0, 1)),
        });
    }
  }
}

/** The next message: a digest when more than the threshold wait (and at least two fit in it), else the first event alone. */
function takeBatch<Message>(state: QueueState<Message>): { events: RoomEvent[]; message: Message } {
  const { options, waiting } = state;
  if (waiting.length > (state.flushing ? 1 : options.threshold)) {
    const shown = coalesceProgress(waiting);
    const digest = options.renderDigest(shown.map((s) => s.event));
    const last = shown[digest.taken - 1];
    // Progress left out before the last event shown is covered by a newer message of its run: it goes too.
    if (digest.taken >= 2 && last) return { events: waiting.splice(0, last.index + 1), message: digest.message };
  }
  const event = waiting.shift() as RoomEvent;
  return { events: [event], message: options.render(event) };
}

/** After a failed send: the events go back to the front to be tried again after a backoff, or are dropped if a retry cannot pass. */
async function settleFailure<Message>(state: QueueState<Message>, events: RoomEvent[], error: ChannelError) {
  const { lane, key, name, logger } = state.options;
  const { waiting, closing, retryDelay } = state;
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
  state.failuresInARow++;
  const backoff = Math.min(retryDelay.max, retryDelay.first * 2 ** (state.failuresInARow - 1));
  const delayMs = Math.max(backoff, lane.pacer.msUntilSlot(key));
  logger.warn("a message to the room failed; its notifications wait and are tried again", {
    room: name,
    code: error.code,
    error: error.message,
    waiting: waiting.length,
    retryInMs: delayMs,
  });
  await sleep(delayMs, closing.signal).catch(() => {});
}
