/** Options of {@link createProgressGate}. */
export interface ProgressGateOptions<T> {
  /** Progress messages per run per minute at most; 0 sends none. */
  perMinute: number;
  /** Sends a message that was held back, once its turn came. */
  flush: (runId: string, item: T) => void;
}

/** Limits each run's progress messages, keeping the latest of those it holds back. */
export interface ProgressGate<T> {
  /** True: send `item` now. False: it is held (replacing any held one) or progress is off. */
  offer(runId: string, item: T): boolean;
  /** The run ended: a held message is stale and dropped. */
  finish(runId: string): void;
  /** Drops every held message. */
  close(): void;
}

interface RunSlot<T> {
  /** Messages the run may send now (fractions accrue between messages). */
  allowance: number;
  /** When `allowance` was last brought up to date, ms since the epoch. */
  at: number;
  held: T | undefined;
  timer: NodeJS.Timeout | undefined;
}

/**
 * A run's allowance is `perMinute` messages, and it refills at that rate,
 * one every `60 000 / perMinute` ms: a run may send a minute's worth at
 * once, then one per interval. While the allowance is spent, messages are
 * coalesced: the latest is kept and sent as soon as one more is allowed.
 * Every channel gets the same messages, so one gate per run serves them all.
 */
export function createProgressGate<T>(options: ProgressGateOptions<T>): ProgressGate<T> {
  const capacity = options.perMinute;
  const intervalMs = capacity > 0 ? 60_000 / capacity : Infinity;
  const runs = new Map<string, RunSlot<T>>();

  const refill = (slot: RunSlot<T>, now: number) => {
    slot.allowance = Math.min(capacity, slot.allowance + (now - slot.at) / intervalMs);
    slot.at = now;
  };
  const release = (runId: string, slot: RunSlot<T>) => {
    slot.timer = undefined;
    const item = slot.held;
    if (item === undefined) return;
    slot.held = undefined;
    refill(slot, Date.now());
    // The timer was set for the moment a whole message is allowed; a timer's rounding must not leave a debt.
    slot.allowance = Math.max(0, slot.allowance - 1);
    options.flush(runId, item);
  };
  // A run whose allowance is whole again with nothing held is as good as new; forgetting it bounds the map.
  const sweep = (now: number) => {
    for (const [runId, slot] of runs)
      if (slot.held === undefined && slot.allowance + (now - slot.at) / intervalMs >= capacity) runs.delete(runId);
  };

  return {
    offer(runId, item) {
      if (intervalMs === Infinity) return false;
      const now = Date.now();
      sweep(now);
      let slot = runs.get(runId);
      if (slot === undefined) {
        slot = { allowance: capacity, at: now, held: undefined, timer: undefined };
        runs.set(runId, slot);
      }
      refill(slot, now);
      if (slot.held === undefined && slot.allowance >= 1) {
        slot.allowance -= 1;
        return true;
      }
      slot.held = item;
      // Unref'd: a held progress message never keeps a finished process alive.
      const current = slot;
      slot.timer ??= setTimeout(() => release(runId, current), Math.ceil((1 - slot.allowance) * intervalMs)).unref();
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
