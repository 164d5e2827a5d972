/**
 * How the sink answers a request. Every field is optional; `{}` is the
 * default answer, 200 with `{"ok":true}`.
 */
export interface SinkBehaviour {
  /** HTTP status. Default 200. */
  status?: number;
  /** JSON body. Default `{"ok":true}` when neither `json` nor `body` is given. */
  json?: unknown;
  /** Raw body (sent as `text/plain` unless `headers` say otherwise). */
  body?: string;
  headers?: Record<string, string>;
  /** Sets `Retry-After`: delay-seconds (`1`, `0.5`) or an HTTP-date string. */
  retryAfter?: number | string;
  /** Waits this long before answering (a slow target). */
  delayMs?: number;
  /** Never answers; the connection stays open until the sink closes. */
  hang?: boolean;
  /** Destroys the connection without answering (a network error at the client). */
  drop?: boolean;
  /**
   * Answers this many requests, then the next step of the script applies.
   * Without `times` the behaviour applies to every later request.
   */
  times?: number;
}

/**
 * A sliding-window rate limit: at most `max` answered requests per
 * `perMs` sliding window, per key (default: the request path). Requests over
 * it get 429 with `Retry-After` (whole seconds, rounded up) and a JSON body
 * `{"message":"rate limited","retry_after":<seconds, float>}`.
 */
export interface SinkRateLimit {
  max: number;
  perMs: number;
  /** Groups requests; default the path. */
  key?: (request: { method: string; path: string; headers: Record<string, unknown> }) => string;
}
