import {
  type ChannelError,
  createChannelError,
  isChannelError,
  type NotifyContext,
  type NotifyResult,
  RateLimitedError,
  retry,
  toChannelError,
} from "@errand/channel-sdk";
import type { ChatAClient } from "./api-client.js";
import type { ChatAConfig } from "./config.js";
import { type Lane, msUntilSlot } from "./lane.js";
import type { ChatAMessage } from "./render/blocks.js";

/** Per-instance state of a chat_a channel. */
export interface ChatAState {
  config: ChatAConfig;
  client: ChatAClient;
  lane: Lane;
}

/** Retries end 1 s before the 5-second call target, so the answer still arrives in time. */
export const RETRY_BUDGET_MS = 4000;
/** Longest single attempt; shorter when less of the budget is left. */
const ATTEMPT_TIMEOUT_MS = 2000;
/** An attempt with less time than this is not worth starting. */
const MIN_ATTEMPT_MS = 300;

/**
 * Delivers one message: waits for the channel's turn (in order, abortable),
 * then for its throttle slot before each attempt; retries only transient
 * failures and 429s (after their `Retry-After`), and only while an attempt
 * still fits in the budget, so the call ends with the platform's error, not
 * a deadline.
 */
export async function deliver(message: ChatAMessage, ctx: NotifyContext<ChatAState>): Promise<NotifyResult> {
  const { config, client, lane } = ctx.state;
  const release = await lane.queue.acquire(ctx.signal);
  let last: ChannelError | undefined;
  let gaveUp = false;
  try {
    const posted = await retry(
      async ({ signal, remainingMs, attempt }) => {
        const pausedMs = lane.pausedUntil - Date.now();
        // Waiting out a long Retry-After would only end in a deadline error.
        if (pausedMs >= remainingMs) {
          gaveUp = true;
          throw new RateLimitedError(`chat_a: channel ${config.channelId} is rate-limited for another ${pausedMs} ms, longer than the call may wait`, {
            retryAfterMs: pausedMs,
            hint: "the platform asked to slow down; the message was not sent",
            cause: last,
          });
        }
        const timeoutMs = Math.min(ATTEMPT_TIMEOUT_MS, remainingMs - msUntilSlot(lane) - 100);
        if (last && timeoutMs < MIN_ATTEMPT_MS) {
          gaveUp = true;
          throw createChannelError(last.code, `gave up after ${attempt - 1} attempts: no time left for another; last error: ${last.message}`, {
            cause: last,
            hint: last.hint,
            retryAfterMs: last.retryAfterMs,
          });
        }
        await lane.throttle.wait(config.channelId, signal);
        lane.lastSlotAt = Date.now();
        try {
          return await client.postMessage(message, signal, Math.max(timeoutMs, MIN_ATTEMPT_MS));
        } catch (error) {
          last = toChannelError(error);
          if (isChannelError(error) && error.retryAfterMs !== undefined) {
            lane.throttle.penalize(config.channelId, error.retryAfterMs);
            lane.pausedUntil = Math.max(lane.pausedUntil, Date.now() + error.retryAfterMs);
          }
          throw error;
        } finally {
          // Count the interval from the answer, not from the send: the platform
          // sees arrival times, and a slow first request (a new connection)
          // followed by a fast one would otherwise arrive less than 1 s apart.
          lane.throttle.penalize(config.channelId, lane.minIntervalMs);
          lane.lastSlotAt = Date.now();
        }
      },
      {
        signal: ctx.signal,
        budgetMs: RETRY_BUDGET_MS,
        shouldRetry: (error) => !gaveUp && error.retryable,
        onRetry: ({ attempt, error, delayMs }) =>
          ctx.logger.warn("retrying chat.postMessage", { attempt, delayMs, code: error.code, error: error.message }),
      },
    );
    return { deliveryId: posted.ts ? `${posted.channel}/${posted.ts}` : undefined };
  } finally {
    release();
  }
}
