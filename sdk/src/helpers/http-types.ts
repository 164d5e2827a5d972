import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import type { RetryOptions } from "./retry.js";
import type { Throttle } from "./throttle.js";

/** Options of {@link createHttpClient}. */
export interface HttpClientOptions {
  /** Resolves relative request URLs (`"chat.postMessage"`; a leading `/` replaces the base path). */
  baseUrl?: string;
  /** Timeout of one attempt, in ms: headers and body. Default 2500. */
  timeoutMs?: number;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** `User-Agent` header. Default `"errand-channel-sdk"`. */
  userAgent?: string;
  /**
   * Secret values never to print (tokens, webhook URLs). Values of
   * `Authorization`, `Cookie` and header names containing token, secret or
   * key are masked without being listed. A function is called per request.
   */
  redact?: Iterable<string> | (() => Iterable<string>);
  /** Every URL of this client is a secret: errors show only its origin. */
  secretUrl?: boolean;
  /**
   * Retries of every request (see {@link retry}); default `{ budgetMs: 4000 }`
   * so a call fits the 5 s target. `false` sends each request once.
   */
  retry?: RetryOptions | false;
  /** Throttle used for requests that give a `throttleKey`. */
  throttle?: Throttle;
  /** Most bytes read of a response body. Default 1 MiB. */
  maxResponseBytes?: number;
  /** undici dispatcher (an Agent, a ProxyAgent). Default the global one. */
  dispatcher?: Dispatcher;
}

/** One request of {@link HttpClient.request}. */
export interface HttpRequest {
  /** Default `POST` when a body is given, else `GET`. */
  method?: string;
  /** Absolute URL, or relative to `baseUrl`. */
  url: string;
  /** Query parameters appended to the URL; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON with `content-type: application/json`. */
  json?: unknown;
  /** Raw body (when `json` is not given). */
  body?: string | Uint8Array;
  headers?: Record<string, string>;
  /** The caller's signal (the handler's `ctx.signal`). */
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout. */
  timeoutMs?: number;
  /** Overrides the client's retry options (merged), or `false` for one attempt. */
  retry?: RetryOptions | false;
  /** Waits for a slot of this key of the client's throttle before each attempt. */
  throttleKey?: string;
  /** This URL is a secret: errors show only its origin. */
  secretUrl?: boolean;
}

/** A successful (2xx) response. */
export interface HttpResponse<T = unknown> {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as text. */
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: T | undefined;
  /** How many attempts it took. */
  attempts: number;
}

/** Options of the shorthand methods. */
export type HttpCallOptions = Omit<HttpRequest, "url" | "method" | "json">;

/** An HTTP client whose failures are typed SDK errors. See {@link createHttpClient}. */
export interface HttpClient {
  /** Sends a request; resolves on 2xx, else throws a typed `ChannelError`. */
  request<T = unknown>(request: HttpRequest): Promise<HttpResponse<T>>;
  /** `GET url`. */
  get<T = unknown>(url: string, options?: HttpCallOptions): Promise<HttpResponse<T>>;
  /** `POST url` with a JSON body. */
  postJson<T = unknown>(url: string, json: unknown, options?: HttpCallOptions): Promise<HttpResponse<T>>;
}
