import { type ChannelError, createChannelError, toChannelError } from "@errand/channel-sdk";

/**
 * What a room's sends say about its platform, so that a queue accepts a
 * notification only when the room is merely behind, never while the platform
 * fails: a call then fails and the caller counts it (its channel turns
 * unhealthy), instead of a success for a notification that may never arrive.
 */
export interface RoomHealth {
  /** True after a send that succeeded or was only rate-limited; false after a failure, and before any send ended. */
  readonly healthy: boolean;
  /** The send in progress, settled (never rejected) once its outcome is recorded; undefined when none is. */
  readonly sending: Promise<void> | undefined;
  /** Records the outcome of `send` when it settles, and returns it unchanged. */
  track<T>(send: Promise<T>): Promise<T>;
  /** Waits for the send in progress to settle; rejects at once when `signal` aborts. */
  waitForSend(signal: AbortSignal | undefined): Promise<void>;
  /** The error for a call refused while the room fails, naming the room and the last failure. */
  failure(): ChannelError;
}

/** Creates the health of the room `name` (e.g. `"chat_a: channel C123"`). */
export function createRoomHealth(name: string): RoomHealth {
  let healthy = false;
  let lastError: ChannelError | undefined;
  let sending: Promise<void> | undefined;

  const note = (error: unknown) => {
    const channelError = toChannelError(error);
    // A rate limit means the room is behind, not down; a cancellation says nothing about the platform.
    if (channelError.code === "ERR_RATE_LIMITED") healthy = true;
    else if (channelError.code !== "ERR_CANCELLED") {
      healthy = false;
      lastError = channelError;
    }
  };

  return {
    get healthy() {
      return healthy;
    },
    get sending() {
      return sending;
    },
    track(send) {
      const settled = send.then(() => void (healthy = true), note);
      sending = settled;
      void settled.then(() => {
        if (sending === settled) sending = undefined;
      });
      return send;
    },
    waitForSend(signal) {
      const current = sending ?? Promise.resolve();
      if (!signal) return current;
      if (signal.aborted) return Promise.reject(toChannelError(signal.reason));
      return new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(toChannelError(signal.reason));
        signal.addEventListener("abort", onAbort, { once: true });
        void current.then(() => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        });
      });
    },
    failure() {
      const last = lastError ?? createChannelError("ERR_UNAVAILABLE", "its last message failed");
      return createChannelError(
        last.code,
        `${name} is failing, so the notification was not queued; its last message failed: ${last.message}`,
        {
          cause: last,
          hint:
            last.hint
            ?? "the channel tries the waiting notifications again and takes new ones once a message gets through; see the log for its errors",
          retryAfterMs: last.retryAfterMs,
        },
      );
    },
  };
}
