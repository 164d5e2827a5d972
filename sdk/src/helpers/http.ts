import type { Dispatcher } from "undici";
import {
  type ChannelError,
  InvalidArgumentError,
  isChannelError,
  RateLimitedError,
  RejectedError,
  toChannelError,
  UnavailableError,
} from "../errors.js";
import { scrubError, secretForms } from "../secret-mask.js";
import { attemptTimeoutMs, encodeRequest } from "./http-attempt.js";
import { parseJsonBody, readBody } from "./http-body.js";
import { redactedResponse } from "./http-error-response.js";
import { httpStatusError } from "./http-status-error.js";
import type { HttpClient, HttpClientOptions, HttpRequest, HttpResponse } from "./http-types.js";
import { resolveUrl, retryAfterOf, secretParts } from "./http-url.js";
import { MAX_TIMER_DELAY_MS } from "./long-timer.js";
import { redactUrl, snippet } from "./redact.js";
import { retry } from "./retry.js";
import { isTransientNetworkError } from "./transport-error.js";

export type { HttpCallOptions, HttpClient, HttpClientOptions, HttpRequest, HttpResponse } from "./http-types.js";

// undici is loaded on the first request, not at import: it takes ~100 ms to
// load, which would otherwise add to every plugin's cold start.
let undici: Promise<typeof import("undici")> | undefined;
const loadUndici = () => (undici ??= import("undici"));

const SECRET_HEADER = /authorization|cookie|token|secret|key/i;

/**
 * Creates an HTTP client on undici whose failures are typed SDK errors:
 * 429 `RateLimitedError` (with `retryAfterMs` from `Retry-After` or a JSON
 * `retry_after`), 408/5xx `UnavailableError`, 401 `UnauthenticatedError`,
 * 403 `PermissionDeniedError`, 404/410 `NotFoundError`, 400/413/414/422
 * `InvalidArgumentError`, other 4xx and 3xx `RejectedError`; network
 * errors `UnavailableError`; the caller's abort `toChannelError(reason)`
 * (`CancelledError`/`DeadlineExceededError`). A per-attempt timeout is an
 * `UnavailableError`: the target was slow this time and the call as a whole
 * may still retry; only the caller's own deadline is `DeadlineExceededError`.
 *
 * Messages name method, redacted URL, status and a 200-character body
 * snippet; secrets never appear in them or in their `cause` chain. The
 * redacted answer of a non-2xx status is kept for
 * `httpErrorResponse(error)`. Inside its own retry, an attempt's timeout is
 * cut to what is left of the budget, and a request whose throttle key is
 * paused longer than that fails at once with `RateLimitedError`.
 *
 * @example
 * const http = createHttpClient({ throttle: createThrottle({ intervalMs: 1000 }), secretUrl: true });
 * await http.postJson(webhookUrl, { content: "hi" }, { signal: ctx.signal, throttleKey: webhookUrl });
 */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const clientRetry = options.retry === undefined ? {} : options.retry;

  /** What every attempt of one request shares: the method, URL and how to show it. */
  const prepare = (req: HttpRequest) => {
    const method = (req.method ?? (req.json !== undefined || req.body !== undefined ? "POST" : "GET")).toUpperCase();
    const url = resolveUrl(req, options.baseUrl);
    const secretUrl = req.secretUrl ?? options.secretUrl ?? false;
    const secrets = secretsFor(options, req, url, secretUrl);
    return { method, url, secrets, shownUrl: redactUrl(url, { secretUrl, forms: secrets }) };
  };

  const request = async <T>(req: HttpRequest): Promise<HttpResponse<T>> => {
    const retryOptions = req.retry === false || clientRetry === false ? false : { ...clientRetry, ...req.retry };
    const prepared = prepare(req);
    const key = req.throttleKey;
    const throttle = key === undefined ? undefined : options.throttle;
    const attempt = (signal: AbortSignal | undefined, timeLeftMs?: () => number) =>
      throttle && key !== undefined
        ? throttle.run(key, () => sendOnce<T>(options, req, prepared, signal, timeLeftMs), signal)
        : sendOnce<T>(options, req, prepared, signal, timeLeftMs);
    if (retryOptions === false) return attempt(req.signal);
    let paused: ChannelError | undefined;
    const shouldRetry = retryOptions.shouldRetry ?? ((error: ChannelError) => error.retryable);
    return retry(
      async ({ attempt: n, signal, timeLeftMs }) => {
        const waitMs = throttle && key !== undefined ? throttle.msUntilSlot(key) : 0;
        if (waitMs > 0 && waitMs >= timeLeftMs()) {
          // Waiting out a long pause (a 429's Retry-After) would only end in a deadline error.
          paused = new RateLimitedError(
            `${prepared.method} ${prepared.shownUrl} is rate-limited for another ${waitMs} ms, longer than the call may wait (${timeLeftMs()} ms left)`,
            {
              retryAfterMs: waitMs,
              hint: "the target asked to slow down; the request was not sent",
            },
          );
          throw paused;
        }
        return { ...(await attempt(signal, timeLeftMs)), attempts: n };
      },
      {
        ...retryOptions,
        signal: req.signal,
        shouldRetry: (error) => error !== paused && shouldRetry(error),
        readyInMs: throttle && key !== undefined ? () => throttle.msUntilSlot(key) : retryOptions.readyInMs,
      },
    );
  };

  return {
    request,
    get: (url, callOptions) => request({ ...callOptions, url, method: "GET" }),
    postJson: (url, json, callOptions) => request({ ...callOptions, url, method: "POST", json }),
  };
}

/** What every attempt of one request shares: the method, URL, the secret forms to mask and the URL as shown. */
interface Prepared {
  method: string;
  url: URL;
  secrets: string[];
  shownUrl: string;
}

/** The forms of every secret a request's errors must not show: listed ones, credential headers, and a secret URL's parts. */
function secretsFor(options: HttpClientOptions, req: HttpRequest, url: URL, secretUrl: boolean): string[] {
  const listed = typeof options.redact === "function" ? options.redact() : (options.redact ?? []);
  const values = [...listed];
  for (const headers of [options.headers, req.headers]) {
    for (const [name, value] of Object.entries(headers ?? {})) {
      // "Bearer xoxb-…": mask the whole value and its token part, not the scheme word.
      if (SECRET_HEADER.test(name)) values.push(value, ...value.split(/\s+/).filter((part) => part.length >= 8));
    }
  }
  if (secretUrl) values.push(url.href, url.pathname.slice(1), url.search.slice(1), ...secretParts(url));
  return secretForms(values);
}

/** One attempt of a request: sent, read within the attempt's timeout, answered or turned into a typed error. */
async function sendOnce<T>(
  options: HttpClientOptions,
  req: HttpRequest,
  { method, url, secrets, shownUrl }: Prepared,
  signal: AbortSignal | undefined,
  timeLeftMs?: () => number,
): Promise<HttpResponse<T>> {
  const timeoutMs = attemptTimeoutMs(options, req, `${method} ${shownUrl}`, timeLeftMs);
  // Longer than a timer holds would fire at once; 24.8 days is "never" for one request.
  const timeout = AbortSignal.timeout(Math.min(timeoutMs, MAX_TIMER_DELAY_MS));
  const attemptSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const { headers, body } = encodeRequest(options, req);
  const maxBytes = options.maxResponseBytes ?? 1024 * 1024;
  try {
    const { request: undiciRequest } = await loadUndici();
    const response = await undiciRequest(url, {
      method: method as Dispatcher.HttpMethod,
      headers,
      body,
      signal: attemptSignal,
      dispatcher: options.dispatcher,
    });
    const read = await readBody(response.body, maxBytes);
    const contentType = response.headers["content-type"];
    const json = parseJsonBody(read.text, typeof contentType === "string" ? contentType : undefined);
    if (response.statusCode >= 200 && response.statusCode < 300) {
      if (read.truncated) {
        throw new RejectedError(`${method} ${shownUrl} answered with a body larger than ${maxBytes} bytes`, {
          hint: "raise maxResponseBytes of the HTTP client",
        });
      }
      return { status: response.statusCode, headers: response.headers, text: read.text, json: json as T, attempts: 1 };
    }
    const retryAfterMs = response.statusCode === 429 ? retryAfterOf(response.headers, json) : undefined;
    throw httpStatusError({
      method,
      url: shownUrl,
      status: response.statusCode,
      bodySnippet: snippet(read.text, secrets),
      retryAfterMs,
      response: redactedResponse(response.statusCode, response.headers, json, read.truncated, secrets),
    });
  } catch (error) {
    if (isChannelError(error)) throw error;
    if (signal?.aborted) throw toChannelError(signal.reason);
    const cause = scrubError(error, secrets);
    if (timeout.aborted) {
      throw new UnavailableError(`${method} ${shownUrl} got no complete answer within ${timeoutMs} ms`, {
        cause,
        hint: "the target is slow or unreachable; raise timeoutMs if it is just slow",
      });
    }
    const detail = snippet(error instanceof Error ? error.message : String(error), secrets);
    if (isTransientNetworkError(error)) {
      throw new UnavailableError(`${method} ${shownUrl} failed: ${detail}`, {
        cause,
        hint: "check that the target is reachable from here",
      });
    }
    throw new InvalidArgumentError(`${method} ${shownUrl} could not be sent: ${detail}`, { cause });
  }
}
