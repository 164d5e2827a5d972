import { isChannelError, RateLimitedError } from "@errand/channel-sdk";
import {
  createThrottle,
  type RetryAttempt,
  type RetryEvent,
  type RetryOptions,
  retry,
} from "@errand/channel-sdk/helpers";
import { createSerialQueue, type SerialQueue } from "./serial-queue.js";

/**
 * What paces the sends of a {@link DeliveryLane}, per key. A
 * throttle of {@link createThrottle} is one; a channel's own rate-limit bucket (driven by the
 * platform's headers) can be another by implementing these three methods.
 */
export interface Pacer {
  /** Milliseconds until `key`'s next send may start; 0 when it may start now. */
  msUntilSlot(key: string): number;
  /**
   * Waits for `key`'s next slot and takes it; rejects when `signal` aborts.
   * May resolve with a function that ends the slot (the lane calls it when
   * the attempt has its answer).
   */
  wait(key: string, signal?: AbortSignal): Promise<(() => void) | void>;
  /** Holds `key` back for `ms` from now (a 429's Retry-After). */
  penalize(key: string, ms: number): void;
}

/** Options of {@link createDeliveryLane}: give `intervalMs` or `pacer`. */
export interface DeliveryLaneOptions {
  /**
   * Least time between two sends of one key, measured from the previous
   * send's answer (a `"completion"`-spaced throttle), so the target never
   * sees two arrivals closer than this even when one answer was slow.
   */
  intervalMs?: number;
  /** Paces sends instead of `intervalMs`. */
  pacer?: Pacer;
  /** Names the target in errors, e.g. `"chat_a: channel C123"`. Never put a secret here. Default `"the target"`. */
  name?: string;
  /** Time for one send's attempts and waits, counted from its turn. Default 4000 (inside the 5 s call target). */
  budgetMs?: number;
  /** Longest single attempt. Default 2000, so two attempts fit the budget. */
  attemptTimeoutMs?: number;
  /** A retry is started only if its attempt would get at least this long. Default 250. */
  minAttemptMs?: number;
  /** Backoff and which failures are retried (see {@link retry}); `onRetry` goes to `send`. */
  retry?: Pick<RetryOptions, "baseDelayMs" | "maxDelayMs" | "maxAttempts" | "shouldRetry" | "random">;
}

/** What each attempt of {@link DeliveryLane.send} receives. */
export interface LaneAttempt extends RetryAttempt {
  /**
   * Timeout to give this attempt's request: `attemptTimeoutMs`, cut to what
   * is left of the budget after the slot wait (less a 100 ms margin), but
   * never under `minAttemptMs`.
   */
  timeoutMs: number;
}

/** Options of one {@link DeliveryLane.send}. */
export interface LaneSendOptions {
  /** The handler's `ctx.signal`: cancels waiting for the turn, the slot, and the running attempt. */
  signal?: AbortSignal;
  /** Called before each retry's wait; log here. */
  onRetry?: (event: RetryEvent) => void;
}

/** Ordered, paced delivery with retries inside a budget. See {@link createDeliveryLane}. */
export interface DeliveryLane {
  /**
   * Sends through `key`'s lane: waits for the key's turn (FIFO, abortable),
   * then runs `fn` in a slot of the pacer, retrying retryable failures within
   * the budget; a failure with `retryAfterMs` (a 429) pauses the key.
   */
  send<T>(key: string, fn: (attempt: LaneAttempt) => Promise<T>, options?: LaneSendOptions): Promise<T>;
  /** The lane's pacer. */
  readonly pacer: Pacer;
  /** Sends waiting for their turn on `key` (the one sending not counted). */
  waiting(key: string): number;
}

/** An attempt's timeout fires this much before the budget, so it fails with its own error. */
const MARGIN_MS = 100;

/**
 * Creates a lane for the common "deliver in order, paced, with retries inside
 * the 5 s target" pattern. For each key (a chat channel, a webhook):
 *
 * - one send at a time, in call order, for its whole life (slot, attempts
 *   and retries), so messages arrive in order even when one is retried;
 * - each attempt waits for a pacer slot; its answer's `retryAfterMs` pauses the key;
 * - when the key is paused for at least the whole budget (a long
 *   Retry-After), the send fails at once with a `RateLimitedError` (`…
 *   is rate-limited for another 28400 ms, longer than the call may wait`)
 *   instead of waiting only to miss the deadline; the message is not sent;
 * - retries follow {@link retry}, with the pacer's wait counted against the
 *   budget: when no attempt fits any more the send fails with the target's
 *   last error, never with a deadline error.
 *
 * Keys are forgotten when idle. Share one lane between channel instances
 * that post to the same target, so they share its pace.
 *
 * @example
 * const lane = createDeliveryLane({ intervalMs: 1000, name: `chat_a: channel ${channelId}` });
 * const posted = await lane.send(channelId, ({ signal, timeoutMs }) => client.post(message, signal, timeoutMs), {
 *   signal: ctx.signal,
 *   onRetry: ({ attempt, error }) => ctx.logger.warn("retrying", { attempt, code: error.code }),
 * });
 */
export function createDeliveryLane(options: DeliveryLaneOptions): DeliveryLane {
  if ((options.pacer === undefined) === (options.intervalMs === undefined)) {
    throw new RangeError("createDeliveryLane: give exactly one of intervalMs and pacer");
  }
  const pacer = options.pacer ?? createThrottle({ intervalMs: options.intervalMs ?? 0, spacing: "completion" });
  const name = options.name ?? "the target";
  const budgetMs = options.budgetMs ?? 4000;
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 2000;
  const minAttemptMs = options.minAttemptMs ?? 250;
  const queues = new Map<string, SerialQueue>();

  const queueOf = (key: string): SerialQueue => {
    let queue = queues.get(key);
    if (!queue) {
      queue = createSerialQueue();
      queues.set(key, queue);
    }
    return queue;
  };

  const attemptOnce = async <T>(key: string, fn: (attempt: LaneAttempt) => Promise<T>, attempt: RetryAttempt) => {
    const endSlot = await pacer.wait(key, attempt.signal);
    try {
      const timeoutMs = Math.max(minAttemptMs, Math.min(attemptTimeoutMs, attempt.timeLeftMs() - MARGIN_MS));
      return await fn({ ...attempt, timeoutMs });
    } catch (error) {
      const retryAfterMs = isChannelError(error) ? error.retryAfterMs : undefined;
      if (retryAfterMs !== undefined) pacer.penalize(key, retryAfterMs);
      throw error;
    } finally {
      if (typeof endSlot === "function") endSlot();
    }
  };

  return {
    pacer,
    waiting: (key) => queues.get(key)?.waiting ?? 0,
    async send(key, fn, sendOptions = {}) {
      const queue = queueOf(key);
      const release = await queue.acquire(sendOptions.signal);
      try {
        const pausedMs = pacer.msUntilSlot(key);
        // Waiting out a long Retry-After would only end in a deadline error.
        if (pausedMs >= budgetMs) {
          throw new RateLimitedError(
            `${name} is rate-limited for another ${pausedMs} ms, longer than the call may wait`,
            {
              retryAfterMs: pausedMs,
              hint: "the platform asked to slow down; the message was not sent",
            },
          );
        }
        return await retry((attempt) => attemptOnce(key, fn, attempt), {
          ...options.retry,
          signal: sendOptions.signal,
          onRetry: sendOptions.onRetry,
          budgetMs,
          minAttemptMs: minAttemptMs + MARGIN_MS,
          readyInMs: () => pacer.msUntilSlot(key),
        });
      } finally {
        release();
        if (!queue.busy && queues.get(key) === queue) queues.delete(key);
      }
    },
  };
}
