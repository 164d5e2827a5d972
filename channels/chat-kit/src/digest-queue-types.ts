import type { Logger, NotifyResult } from "@errand/channel-sdk";
import type { DeliveryLane, LaneAttempt } from "./delivery-lane.js";
import type { RoomEvent } from "./room-event.js";

/** Options of {@link createDigestQueue}. */
export interface DigestQueueOptions<Message> {
  /** The room's lane (shared by every instance that posts to the room): it paces and retries each send. */
  lane: DeliveryLane;
  /** The room's key in `lane`: a channel ID, a webhook id. */
  key: string;
  /** Names the room in logs and errors, e.g. `"chat_a: channel C123"`. Never put a secret here. */
  name: string;
  /** Names the request in the retry log line (`retrying <request>`), e.g. `"chat.postMessage"`. */
  request: string;
  /** When more than this many events wait, the next message is a digest of them. At least 1. */
  threshold: number;
  /** The message of one event, as it is sent when the room keeps up. */
  render(event: RoomEvent): Message;
  /**
   * One digest message for the first events of `events` (in order, progress
   * already coalesced), as many as fit in one message; `taken` says how many
   * (a digest of fewer than 2 is not sent: the first event then goes alone).
   */
  renderDigest(events: readonly RoomEvent[]): { message: Message; taken: number };
  /** Sends one message (one attempt; the lane retries); resolves with the platform's id for it. */
  post(message: Message, attempt: LaneAttempt): Promise<string | undefined>;
  /** Where the queue's own lines go (retries, dropped and lost events). */
  logger: Logger;
  /** Most events that may wait; beyond, a call fails with `ERR_RATE_LIMITED`. Default 10,000. */
  maxWaiting?: number;
  /** How long `close` tries to send what waits. Default 250 ms (a plugin process gets 300 ms to close). */
  flushMs?: number;
  /** First and longest wait before a failed send of waiting events is tried again. Default 1000 and 30,000 ms. */
  retryDelayMs?: { first: number; max: number };
}

/** A room's notifications: sent as they come while the room keeps up, combined into digests when it falls behind. See {@link createDigestQueue}. */
export interface DigestQueue {
  /**
   * Delivers `event`. While the room is idle the call sends the event's own
   * message and answers with the platform's result or error; while the room
   * is busy (a send in progress, events waiting, or a Retry-After pause) the
   * event joins the queue and the call answers at once, without a delivery id.
   * While the platform fails (the last send failed, or none has ended yet),
   * a call waits for the send in progress and fails with the room's error
   * instead of joining the queue. `options.logger` (where the call's retries
   * are logged; the queue's own logger by default) is read only when a retry
   * is logged, so a lazily made logger such as a handler's `ctx.logger` costs
   * nothing on the calls that never retry.
   */
  submit(event: RoomEvent, options?: { signal?: AbortSignal; logger?: Logger }): Promise<NotifyResult>;
  /** Events waiting for the room (the ones being sent not counted). */
  readonly waiting: number;
  /** Refuses new events, sends what waits within `flushMs` (as one digest when it can), and logs what could not be sent. */
  close(): Promise<void>;
}
