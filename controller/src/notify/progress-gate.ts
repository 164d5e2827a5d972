/** Options of {@link createProgressGate}. */
export interface ProgressGateOptions<T> {
  /** Progress messages per run per minute at most; 0 sends none. */
  perMinute: number;
  /** Sends a message that was held back, once its turn came. */
  flush: (runId: string, item: T) => void;
}

/** Spaces out a run's progress messages, keeping the latest of a burst. */
export interface ProgressGate<T> {
  /** True: send `item` now. False: it is held (replacing any held one) or progress is off. */
  offer(runId: string, item: T): boolean;
  /** The run ended: a held message is stale and dropped. */
  finish(runId: string): void;
  /** Drops every held message. */
  close(): void;
}

interface RunSlot<T> {
  /** Earliest time the next message may go, ms since the epoch. */
  nextAt: number;
  held: T | undefined;
  timer: NodeJS.Timeout | undefined;
}

/**
 * At most one progress message per `60 000 / perMinute` ms per run: the
 * first goes at once; later ones within the interval are coalesced, the
 * latest kept and sent when the interval has passed. Every channel gets the
 * same messages, so one gate per run serves them all.
 */
export function createProgressGate<T>(options: ProgressGateOptions<T>): ProgressGate<T> {
  const intervalMs = options.perMinute > 0 ? 60_000 / options.perMinute : Infinity;
  const runs = new Map<string, RunSlot<T>>();

  const release = (runId: string, slot: RunSlot<T>) => {
    slot.timer = undefined;
    const item = slot.held;
    if (item === undefined) return;
    slot.held = undefined;
    slot.nextAt = Date.now() + intervalMs;
    options.flush(runId, item);
  };
  // A run whose interval passed with nothing held is as good as new; forgetting it bounds the map.
  const sweep = (now: number) => {
    for (const [runId, slot] of runs) if (slot.held === undefined && slot.nextAt <= now) runs.delete(runId);
  };

  return {
    offer(runId, item) {
      if (intervalMs === Infinity) return false;
      const now = Date.now();
      sweep(now);
      const slot = runs.get(runId);
      if (!slot) {
        runs.set(runId, { nextAt: now + intervalMs, held: undefined, timer: undefined });
        return true;
      }
      slot.held = item;
      // Unref'd: a held progress message never keeps a finished process alive.
      slot.timer ??= setTimeout(() => release(runId, slot), slot.nextAt - now).unref();
      return false;
    },
    finish(runId) {
      const slot = runs.get(runId);
      if (slot) clearTimeout(slot.timer);
      runs.delete(runId);
    },
    close() {
      for (const slot of runs.values()) clearTimeout(slot.timer);
      runs.clear();
    },
  };
}
