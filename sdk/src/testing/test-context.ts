import type { ChannelConfig, ChannelSecrets, StartContext } from "../channel.js";
import { DeadlineExceededError } from "../errors.js";
import { CALL_TARGET_MS } from "../version.js";
import { type CapturedLogger, captureLogger } from "./capture-logger.js";

/** Options of {@link createTestContext}. */
export interface TestContextOptions<State, Config = ChannelConfig> {
  /** The config as the handlers see it: a `configSchema`'s output when the channel has one. */
  config?: Config;
  secrets?: Record<string, string>;
  /** What `init` would have returned. */
  state?: State;
  /** Default `"run-test-1"`. */
  taskRunId?: string;
  /** Engine name for `notifyStart`. Default `"test-engine"`. */
  engine?: string;
  /**
   * Deadline of the call: the signal aborts with a `DeadlineExceededError`
   * after this many ms, like the host's. Default 5000 (the call target);
   * `0` for no deadline.
   */
  timeoutMs?: number;
  /** An extra signal to follow (a test's own controller). */
  signal?: AbortSignal;
}

/** A handler context for unit tests, plus handles to steer and inspect it. */
export interface TestContext<State = undefined, Config = ChannelConfig> extends StartContext<State, Config> {
  /** The logger's records (secrets masked). */
  logger: CapturedLogger;
  /** Cancels the call, as a host shutdown would; the reason defaults to a `CancelledError`-mapped AbortError. */
  abort(reason?: unknown): void;
}

/**
 * Builds the context a handler receives from the host, so a channel's
 * handlers can be unit-tested directly. Works for `notify`,
 * `notifyComplete` and (it has `engine`) `notifyStart`. The logger masks the
 * given secrets like the plugin's real logger.
 *
 * @example
 * const ctx = createTestContext({ config: { channel: "C1" }, secrets: { token: "xoxb-1" }, state });
 * await channel.notifyStart(fixtures.tickets.basic, ctx);
 * expect(ctx.logger.records).toEqual([]);
 */
export function createTestContext<State = undefined, Config = ChannelConfig>(
  options: TestContextOptions<State, Config> = {},
): TestContext<State, Config> {
  const secrets: ChannelSecrets = Object.freeze({ ...options.secrets });
  const controller = new AbortController();
  const signals = [controller.signal];
  const timeoutMs = options.timeoutMs ?? CALL_TARGET_MS;
  if (timeoutMs > 0) {
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DeadlineExceededError(`the call's deadline of ${timeoutMs} ms passed`)),
      timeoutMs,
    );
    timer.unref();
    signals.push(deadline.signal);
  }
  if (options.signal) signals.push(options.signal);
  return {
    signal: AbortSignal.any(signals),
    taskRunId: options.taskRunId ?? "run-test-1",
    config: structuredClone(options.config ?? {}) as Config,
    secrets,
    state: options.state as State,
    engine: options.engine ?? "test-engine",
    logger: captureLogger({ secrets: Object.values(secrets) }),
    abort: (reason?: unknown) => controller.abort(reason),
  };
}
