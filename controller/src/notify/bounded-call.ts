import { type ChannelError, DeadlineExceededError, ErrorCode, toChannelError } from "@errand/channel-sdk";
import type { CallTracker } from "./call-tracker.js";
import type { CallOutcome } from "./notifier-metrics.js";

/** How one bounded call ended. */
export interface CallReport {
  outcome: CallOutcome;
  /** Set unless the outcome is `ok`. */
  error: ChannelError | undefined;
  durationMs: number;
}

/** Options of {@link boundedCall}. */
export interface BoundedCallOptions {
  timeoutMs: number;
  /** The caller's signal: handed to the call as it is; aborting it cancels the call. */
  signal?: AbortSignal;
  /** A long-lived cancellation (the notifier's shutdown) that the call joins for its duration. */
  tracker?: CallTracker;
}

function isTimeout(reason: unknown): boolean {
  return (
    (reason as { name?: unknown })?.name === "TimeoutError"
    || (reason as { code?: unknown })?.code === ErrorCode.DeadlineExceeded
  );
}

/**
 * Runs `run` and settles when it does, after `timeoutMs`, or when the
 * tracker cancels, whichever comes first: a channel that does not answer is
 * left behind, not waited for. Never rejects.
 *
 * `run` gets the caller's `signal` as it is, and must pass it and `timeoutMs`
 * on as the call's own: the notifier's channels (loaded in-process or
 * connected to a plugin by the SDK) end a call when its signal aborts and at
 * its deadline. So no controller, signal or listener is made per call here:
 * each cost microseconds and garbage on every notification. A call the
 * tracker cancels, or that outlives the bound, is reported at once and ends
 * by its own deadline (or when the notifier closes its channels, right after
 * its shutdown).
 */
export async function boundedCall(
  run: (signal: AbortSignal | undefined) => Promise<unknown>,
  options: BoundedCallOptions,
): Promise<CallReport> {
  const started = performance.now();
  const outer = options.signal;
  const done = (outcome: CallOutcome, error?: ChannelError): CallReport => ({
    outcome,
    error,
    durationMs: performance.now() - started,
  });
  if (outer?.aborted) return aborted(outer, done);
  let abandon: (reason: unknown) => void = () => {};
  let abandonedBy: "tracker" | "bound" | undefined;
  const abandoned = new Promise<never>((_, reject) => {
    abandon = reject;
  });
  const cancel = (reason: unknown): void => {
    abandonedBy ??= "tracker";
    abandon(reason);
  };
  options.tracker?.join(cancel);
  const timer = setTimeout(() => {
    abandonedBy ??= "bound";
    abandon(new DeadlineExceededError(`no answer within ${options.timeoutMs} ms`));
  }, options.timeoutMs);
  try {
    // A call abandoned early may still settle later; its late answer is dropped. One the tracker cancelled
    // before it began (a shutdown already under way) is not made at all.
    const pending = Promise.resolve().then(() => (abandonedBy === undefined ? run(outer) : undefined));
    pending.catch(() => {});
    await Promise.race([pending, abandoned]);
    return done("ok");
  } catch (error) {
    const channelError = toChannelError(error);
    if (abandonedBy === "tracker") return done("cancelled", channelError);
    if (outer?.aborted) return aborted(outer, done);
    return done(channelError.code === ErrorCode.DeadlineExceeded ? "timeout" : "error", channelError);
  } finally {
    clearTimeout(timer);
    options.tracker?.leave(cancel);
  }
}

/** A call whose caller's signal aborted: a timeout when the caller gave up at its own bound, else a cancellation. */
function aborted(signal: AbortSignal, done: (outcome: CallOutcome, error?: ChannelError) => CallReport): CallReport {
  return done(isTimeout(signal.reason) ? "timeout" : "cancelled", toChannelError(signal.reason));
}
