import { type ChannelError, DeadlineExceededError, ErrorCode, toChannelError } from "@errand/channel-sdk";
import type { CallOutcome } from "./notifier-metrics.js";

/** How one bounded call ended. */
export interface CallReport {
  outcome: CallOutcome;
  /** Set unless the outcome is `ok`. */
  error: ChannelError | undefined;
  durationMs: number;
}

function isTimeout(reason: unknown): boolean {
  return (
    (reason as { name?: unknown })?.name === "TimeoutError"
    || (reason as { code?: unknown })?.code === ErrorCode.DeadlineExceeded
  );
}

/**
 * Runs `run` with a signal that aborts after `timeoutMs` or when `signal`
 * aborts, and settles by then whatever `run` does: a channel that ignores
 * its signal is left behind, not waited for. Never rejects.
 */
export async function boundedCall(
  run: (signal: AbortSignal) => Promise<unknown>,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<CallReport> {
  const started = performance.now();
  // One controller, aborted by the bound's timer or by the caller's signal (not AbortSignal.any: see linked-signal.ts).
  const bound = new AbortController();
  const outer = options.signal;
  const onOuterAbort = outer ? () => bound.abort(outer.reason) : undefined;
  if (outer?.aborted) bound.abort(outer.reason);
  else if (outer && onOuterAbort) outer.addEventListener("abort", onOuterAbort, { once: true });
  const signal = bound.signal;
  const timer = setTimeout(
    () => bound.abort(new DeadlineExceededError(`no answer within ${options.timeoutMs} ms`)),
    options.timeoutMs,
  );
  let onAbort: (() => void) | undefined;
  const abandoned = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
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
    if (onAbort) signal.removeEventListener("abort", onAbort);
    if (outer && onOuterAbort) outer.removeEventListener("abort", onOuterAbort);
  }
}
