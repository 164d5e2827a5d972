import { isChannelError, toChannelError } from "../errors.js";
import { MAX_TIMER_DELAY_MS } from "./long-timer.js";

/** Options of {@link createThrottle}. */
export interface ThrottleOptions {
  /**
   * Minimum time between two slots of the same key, in milliseconds
   * (1000 for "1 message per second per channel").
   */
  intervalMs: number;
  /**
   * What `intervalMs` is measured from:
   * - `"start"` (default): from one slot's grant to the next, i.e. between
   *   request starts;
   * - `"completion"`: from the end of one slot (its `release`, or the end of
   *   `run`'s function) to the next grant. A slot is then held while its work
   *   runs, so a key has at most one slot in use. Use it when the target
   *   counts arrival times and an answer may be slow: with start spacing, a
   *   slow request (a new connection) followed by a fast one can arrive less
   *   than `intervalMs` apart.
   */
  spacing?: "start" | "completion";
}

/**
 * Ends a slot of a {@link Throttle} (see {@link ThrottleOptions.spacing});
 * calling it again does nothing. With `"start"` spacing it does nothing at all.
 */
export type ReleaseSlot = () => void;

/**
 * A per-key rate limiter. Callers of one key get their slots in FIFO order,
 * at least `intervalMs` apart; different keys never wait for each other.
 */
export interface Throttle {
  /**
   * Resolves when `key` has a free slot, and takes it. Queues behind earlier
   * callers of the same key instead of dropping. When `signal` aborts while
   * waiting, the caller leaves the queue at once and the promise rejects with
   * `toChannelError(signal.reason)` (`CancelledError` or
   * `DeadlineExceededError`); the others keep their order.
   *
   * Resolves with the slot's `release`. With `"completion"` spacing, call it
   * (in a `finally`) when the work is done: the key's next slot comes
   * `intervalMs` after it, and not before it is called.
   */
  wait(key: string, signal?: AbortSignal): Promise<ReleaseSlot>;
  /**
   * Waits for a slot of `key`, then runs `fn`. When `fn` throws an error with
   * `retryAfterMs` (a `RateLimitedError`), the key is penalized (`penalize`) by
   * that much before the error is rethrown, so the next caller of the key
   * honours the target's Retry-After. The slot is released when `fn` ends.
   */
  run<T>(key: string, fn: () => T | Promise<T>, signal?: AbortSignal): Promise<T>;
  /**
   * Pauses `key`: its next slot comes no earlier than `ms` from now (a
   * 429's Retry-After). A shorter penalty never shortens an existing pause.
   * Any finite length works, also one beyond what a Node timer holds (it is
   * waited in chunks of about 24.8 days); `ms` that is not a finite number
   * above 0 is ignored.
   */
  penalize(key: string, ms: number): void;
  /**
   * Milliseconds until `key`'s next slot is due: 0 when a caller would get
   * one at once. Callers already queued for the key are not counted. While
   * a `"completion"`-spaced slot is held it is at least `intervalMs` (the
   * slot's end is not known yet). Use it to decide whether waiting for a
   * slot still fits in a time budget.
   */
  msUntilSlot(key: string): number;
  /** Callers of `key` waiting for a slot. */
  pending(key: string): number;
  /** Keys the throttle currently remembers (busy or recently used). */
  readonly size: number;
}

interface Waiter {
  resolve: (release: ReleaseSlot) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

interface KeyState {
  /** Earliest time (ms since epoch) the next slot may be granted. */
  nextAt: number;
  queue: Waiter[];
  timer: NodeJS.Timeout | undefined;
  /** A `"completion"`-spaced slot is in use: nothing is granted until it is released. */
  held: boolean;
}

/**
 * Creates a per-key {@link Throttle}.
 *
 * Memory stays bounded: a key is forgotten once its queue is empty and its
 * next slot has come. Timers run only while a key has waiters or a pending
 * slot; the timer that forgets an idle key is unref'd, so an idle throttle
 * never keeps a process alive.
 *
 * @example
 * const throttle = createThrottle({ intervalMs: 1000 });
 * await throttle.run(channelId, () => postMessage(channelId, text), ctx.signal);
 */
export function createThrottle(options: ThrottleOptions): Throttle {
  const { intervalMs, holds } = checkThrottleOptions(options);
  const keys = new Map<string, KeyState>();

  const schedule = (key: string, state: KeyState) => {
    if (state.timer) clearTimeout(state.timer);
    // A pause longer than a timer holds (a Retry-After of days) is waited in
    // chunks: tick finds the slot not yet due and schedules the next chunk.
    const delay = Math.min(MAX_TIMER_DELAY_MS, Math.max(0, state.nextAt - Date.now()));
    state.timer = setTimeout(() => tick(key, state), delay);
    // Only an idle key's cleanup timer may let the process exit; a waiter
    // is someone awaiting a promise and must keep the process alive.
    if (state.queue.length === 0) state.timer.unref();
  };

  const tick = (key: string, state: KeyState) => {
    state.timer = undefined;
    // A held slot's release schedules the next grant.
    if (state.held) return;
    const now = Date.now();
    if (now < state.nextAt) {
      schedule(key, state);
      return;
    }
    const waiter = state.queue.shift();
    if (!waiter) {
      keys.delete(key);
      return;
    }
    grant(key, state, waiter, now);
    schedule(key, state);
  };

  const take = (key: string, state: KeyState, now: number): ReleaseSlot =>
    takeSlot(state, now, intervalMs, holds, () => schedule(key, state));

  const grant = (key: string, state: KeyState, waiter: Waiter, now: number) => {
    const release = take(key, state, now);
    if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
    waiter.resolve(release);
  };

  const stateOf = (key: string): KeyState => stateIn(keys, key);

  const wait = (key: string, signal?: AbortSignal): Promise<ReleaseSlot> => {
    if (signal?.aborted) return Promise.reject(toChannelError(signal.reason));
    const state = stateOf(key);
    const now = Date.now();
    if (state.queue.length === 0 && !state.held && now >= state.nextAt) {
      const release = take(key, state, now);
      schedule(key, state);
      return Promise.resolve(release);
    }
    return enqueue(state, signal, () => schedule(key, state));
  };

  const penalize = (key: string, ms: number) => {
    if (!Number.isFinite(ms) || ms <= 0) return;
    const state = stateOf(key);
    const until = Date.now() + ms;
    if (until <= state.nextAt) return;
    state.nextAt = until;
    schedule(key, state);
  };

  return {
    wait,
    run: (key, fn, signal) => runInSlot(wait(key, signal), fn, (ms) => penalize(key, ms)),
    penalize,
    msUntilSlot: (key) => msUntil(keys.get(key), intervalMs),
    pending: (key) => keys.get(key)?.queue.length ?? 0,
    get size() {
      return keys.size;
    },
  };
}

function checkThrottleOptions(options: ThrottleOptions): { intervalMs: number; holds: boolean } {
  const intervalMs = options.intervalMs;
  if (!Number.isFinite(intervalMs) || intervalMs < 0) {
    throw new RangeError(`createThrottle: intervalMs must be a finite number >= 0, got ${intervalMs}`);
  }
  const spacing = options.spacing ?? "start";
  if (spacing !== "start" && spacing !== "completion") {
    throw new RangeError(`createThrottle: spacing must be "start" or "completion", got ${String(spacing)}`);
  }
  return { intervalMs, holds: spacing === "completion" };
}

/** Takes the key's slot now; with completion spacing the slot is held until the returned function releases it. */
function takeSlot(
  state: KeyState,
  now: number,
  intervalMs: number,
  holds: boolean,
  reschedule: () => void,
): ReleaseSlot {
  state.nextAt = now + intervalMs;
  if (!holds) return NOOP;
  state.held = true;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    state.held = false;
    state.nextAt = Math.max(state.nextAt, Date.now() + intervalMs);
    reschedule();
  };
}

const NOOP: ReleaseSlot = () => {};

function msUntil(state: KeyState | undefined, intervalMs: number): number {
  if (!state) return 0;
  const due = Math.max(0, state.nextAt - Date.now());
  return state.held ? Math.max(due, intervalMs) : due;
}

function stateIn(keys: Map<string, KeyState>, key: string): KeyState {
  let state = keys.get(key);
  if (!state) {
    state = { nextAt: 0, queue: [], timer: undefined, held: false };
    keys.set(key, state);
  }
  return state;
}

/** Queues a waiter for the key's next slot; an abort takes it out of the queue. `first` runs when it is alone in the queue and no slot is held. */
function enqueue(state: KeyState, signal: AbortSignal | undefined, first: () => void): Promise<ReleaseSlot> {
  return new Promise<ReleaseSlot>((resolve, reject) => {
    const waiter: Waiter = { resolve, reject, signal, onAbort: undefined };
    if (signal) {
      waiter.onAbort = () => {
        const index = state.queue.indexOf(waiter);
        if (index >= 0) state.queue.splice(index, 1);
        if (state.queue.length === 0) state.timer?.unref();
        reject(toChannelError(signal.reason));
      };
      signal.addEventListener("abort", waiter.onAbort, { once: true });
    }
    state.queue.push(waiter);
    if (state.queue.length === 1 && !state.held) first();
  });
}

/** Runs `fn` in the slot `slot` gives; a failure that carries a Retry-After pushes the key's next slot back by it. */
async function runInSlot<T>(
  slot: Promise<ReleaseSlot>,
  fn: () => T | Promise<T>,
  penalize: (ms: number) => void,
): Promise<T> {
  const release = await slot;
  try {
    return await fn();
  } catch (error) {
    const retryAfterMs = isChannelError(error) ? error.retryAfterMs : undefined;
    if (retryAfterMs !== undefined) penalize(retryAfterMs);
    throw error;
  } finally {
    release();
  }
}
