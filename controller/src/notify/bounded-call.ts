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
  /** The caller's signal: aborting it cancels the call. */
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
 * Runs `run` with a signal that aborts after `timeoutMs`, when `signal`
 * aborts or when the tracker cancels, and settles by then whatever `run`
 * does: a channel that ignores its signal is left behind, not waited for.
 * Never rejects.
 */
export async function boundedCall(
  run: (signal: AbortSignal) => Promise<unknown>,
  options: BoundedCallOptions,
): Promise<CallReport> {
  const started = performance.now();
  // One controller, aborted only through `cancel` (not AbortSignal.any, nor a listener on its own signal: each costs).
  const bound = new AbortController();
  const signal = bound.signal;
  let abandon: (reason: unknown) => void = () => {};
  const abandoned = new Promise<never>((_, reject) => {
    abandon = reject;
  });
  const cancel = (reason: unknown): void => {
    if (signal.aborted) return;
    bound.abort(reason);
    abandon(reason);
  };
  const outer = options.signal;
  const onOuterAbort = outer ? () => cancel(outer.reason) : undefined;
  if (outer?.aborted) cancel(outer.reason);
  else if (outer && onOuterAbort) outer.addEventListener("abort", onOuterAbort, { once: true });
  options.tracker?.join(cancel);
  const timer = setTimeout(
    () => cancel(new DeadlineExceededError(`no answer within ${options.timeoutMs} ms`)),
    options.timeoutMs,
  );
  const done = (outcome: CallOutcome, error?: ChannelError): CallReport => ({
    outcome,
    error,
    durationMs: performance.now() - started,
  });
  try {
    const pending = Promise.resolve().then(() => run(signal));
    // The call may still settle after the bound; its late answer is dropped.
    pending.catch(() => {});
    await Promise.race([pending, abandoned]);
    return done("ok");
  } catch (error) {
    const channelError = toChannelError(error);
    if (signal.aborted)
      return isTimeout(signal.reason)
        ? done("timeout", toChannelError(signal.reason))
        : done("cancelled", channelError);
    return done(channelError.code === ErrorCode.DeadlineExceeded ? "timeout" : "error", channelError);
  } finally {
    clearTimeout(timer);
    options.tracker?.leave(cancel);
    if (outer && onOuterAbort) outer.removeEventListener("abort", onOuterAbort);
  }
}
