/**
 * The calls in flight that one long-lived signal (the notifier's shutdown)
 * cancels. A call joins a Set instead of adding a listener to that signal:
 * Node's EventTarget walks its whole listener list on every add and remove,
 * and with a listener per call in flight that was a cost on every call.
 */
export interface CallTracker {
  /** Calls `cancel` with the signal's reason when it aborts; at once if it already has. */
  join(cancel: (reason: unknown) => void): void;
  /** The call ended: `cancel` is not called any more. */
  leave(cancel: (reason: unknown) => void): void;
}

/** Tracks calls that `signal` cancels, with one listener on it for all of them. */
export function trackCalls(signal: AbortSignal): CallTracker {
  const calls = new Set<(reason: unknown) => void>();
  signal.addEventListener(
    "abort",
    () => {
      for (const cancel of calls) cancel(signal.reason);
      calls.clear();
    },
    { once: true },
  );
  return {
    join(cancel) {
      if (signal.aborted) cancel(signal.reason);
      else calls.add(cancel);
    },
    leave(cancel) {
      calls.delete(cancel);
    },
  };
}
