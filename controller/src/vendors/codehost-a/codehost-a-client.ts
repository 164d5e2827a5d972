import type { Logger } from "@errand/channel-sdk";
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import type { RateLimitGate } from "./rate-limit-gate.js";

// Typed as the plain Octokit: the plugins add behaviour, not methods, and the composed type
// cannot be named in the declarations this package emits (TS2742).
const ThrottledOctokit: typeof Octokit = Octokit.plugin(throttling, retry);

/** The Octokit the adapter talks through: REST methods, throttled and retried. */
export type CodehostAClient = Octokit;

/** Options of {@link createCodehostAClient}. */
export interface CodehostAClientOptions {
  token: string;
  /** `ticketing.config.api_base_url`; unset: the public API. */
  baseUrl: string | undefined;
  /** Key of the throttling queues: clients of the same repository share them. */
  id: string;
  gate: RateLimitGate;
  /** The logger of the call under way. */
  logger: () => Logger;
  /** Length of one second in the plugins' waits (Retry-After, retry back-off); 1000 but in tests. */
  secondMs: number;
  /** Longest a single attempt may take before it counts as failed (and is retried). */
  requestTimeoutMs: number;
  /** Longest wait for a rate limit inside one request; longer ones fail the request and close the gate. */
  maxRateLimitWaitSeconds: number;
}

/**
 * An Octokit with the throttling plugin (GitHub's primary and secondary
 * limits: 403/429 with x-ratelimit-* or Retry-After, one write per second)
 * and the retry plugin (5xx and network errors, 3 times with growing
 * waits). A rate limit is waited out inside the request once when the wait
 * is short (a write's, however long); otherwise the request fails. The gate
 * sees every answer: while limited it refuses new polls, and a secondary
 * limit holds every request on its way until Retry-After has passed (see
 * RateLimitGate). Each attempt has its own timeout, so a code host that
 * hangs counts as a failed attempt rather than a stuck poll.
 */
export function createCodehostAClient(options: CodehostAClientOptions): CodehostAClient {
  const { gate, logger, secondMs } = options;
  const onLimit =
    (kind: string) =>
    (
      retryAfter: number,
      request: { method: string; url: string; request?: { signal?: AbortSignal | null } },
      _octokit: unknown,
      retryCount: number,
    ) => {
      // A write is retried however long the wait (the gate holds it until then): write-back is not repeated later.
      const wait =
        retryCount < 1
        && (isWrite(request.method) || retryAfter <= options.maxRateLimitWaitSeconds)
        && request.request?.signal?.aborted !== true;
      logger().warn(`code host A ${kind}`, {
        request: `${request.method} ${request.url}`,
        retry_after_s: retryAfter,
        waiting: wait,
      });
      return wait;
    };
  const client = new ThrottledOctokit({
    auth: options.token,
    userAgent: "errand-controller",
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl.replace(/\/+$/, "") }),
    // Octokit logs every attempt, and a 304 as an error: attempts are detail, the call's outcome is what the caller logs.
    log: {
      debug: () => {},
      info: (message: string) => logger().debug(message),
      warn: (message: string) => logger().warn(message),
      error: (message: string) => logger().debug(message),
    },
    request: { fetch: gatedFetch(gate, timedFetch(options.requestTimeoutMs)) },
    throttle: {
      id: options.id,
      retryAfterBaseValue: secondMs,
      onRateLimit: onLimit("rate limit reached"),
      onSecondaryRateLimit: onLimit("secondary rate limit reached"),
    },
    // 429 is the throttling plugin's to judge (it reads Retry-After); the retry plugin would retry it blindly.
    retry: { retryAfterBaseValue: secondMs, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
  });
  // Registered last, so it wraps the plugins: a new poll is refused while limited; writes wait in gatedFetch.
  client.hook.wrap("request", async (request, endpoint) => {
    if (!isWrite(endpoint.method)) gate.check();
    return untilAborted(Promise.resolve(request(endpoint)), endpoint.request?.signal ?? undefined);
  });
  return client;
}

const isWrite = (method: string | undefined) =>
  method !== undefined && method.toUpperCase() !== "GET" && method.toUpperCase() !== "HEAD";

/**
 * fetch under the gate: each attempt (a plugin's retry too) waits while a
 * secondary limit holds, and each answer is shown to the gate, so that a
 * limit closes it as soon as the host sets it, not once the plugins gave up.
 */
function gatedFetch(gate: RateLimitGate, next: typeof fetch): typeof fetch {
  return async (input, init) => {
    const release = await gate.hold(isWrite(init?.method), init?.signal ?? undefined);
    try {
      const response = await next(input, init);
      gate.observe(response.status, Object.fromEntries(response.headers));
      return response;
    } finally {
      release();
    }
  };
}

/**
 * The request, or an AbortError as soon as `signal` aborts: the plugins'
 * waits (a Retry-After, a retry's back-off) cannot be cancelled, and a
 * stopping controller must not sit them out. What is left behind makes no
 * request: its next fetch sees the aborted signal.
 */
function untilAborted<T>(pending: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return pending;
  pending.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new DOMException("the request was cancelled (controller shutting down)", "AbortError"));
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/**
 * fetch with a timeout per attempt, on top of the caller's signal (a retry
 * gets a fresh timeout). A timeout is a failed attempt the retry plugin
 * retries; the caller's abort (shutdown) becomes an AbortError, which
 * Octokit and its plugins pass on at once instead of retrying.
 */
function timedFetch(timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const caller = init?.signal ?? undefined;
    const cancelled = () => new DOMException("the request was cancelled (controller shutting down)", "AbortError");
    if (caller?.aborted) throw cancelled();
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      return await fetch(input, { ...init, signal: caller ? AbortSignal.any([caller, timeout]) : timeout });
    } catch (error) {
      if (caller?.aborted) throw cancelled();
      throw error;
    }
  };
}
