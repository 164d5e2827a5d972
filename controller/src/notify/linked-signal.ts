/** A signal that aborts when any of its sources does, and the way to let go of the sources. */
export interface LinkedSignal {
  signal: AbortSignal;
  /** Removes the listeners from the sources; call it when the work the signal guards has ended. */
  dispose(): void;
}

/**
 * Like `AbortSignal.any(sources)`, without its cost: on Node 20 `any()`
 * with a long-lived source (the notifier's shutdown signal) costs 20–40 µs
 * a call, growing with every call made, and keeps its dependants until GC.
 * Here each source gets one listener, removed by `dispose()`.
 */
export function linkSignals(sources: readonly AbortSignal[]): LinkedSignal {
  const control = new AbortController();
  const aborted = sources.find((s) => s.aborted);
  if (aborted !== undefined) {
    control.abort(aborted.reason);
    return { signal: control.signal, dispose: () => undefined };
  }
  const listeners = sources.map((source) => {
    const onAbort = (): void => control.abort(source.reason);
    source.addEventListener("abort", onAbort, { once: true });
    return onAbort;
  });
  return {
    signal: control.signal,
    dispose() {
      sources.forEach((source, i) => source.removeEventListener("abort", listeners[i]!));
    },
  };
}
