import type { IncomingHttpHeaders } from "node:http";
import { maskForms, REDACTED } from "../secret-mask.js";

/**
 * The target's answer behind a failed (non-2xx) request of the HTTP client,
 * redacted: read it with {@link httpErrorResponse}. Lets a channel read the
 * platform's error shape (`{"code": 50035, "errors": …}`) and rate-limit
 * headers from the same error it already handles.
 */
export interface HttpErrorResponse {
  status: number;
  /**
   * The response headers. Values of `Set-Cookie` and headers whose name
   * contains authorization, cookie, token, secret or key are
   * `"[redacted]"`; known secrets are masked in the others.
   */
  headers: IncomingHttpHeaders;
  /** The parsed body when it is JSON, with known secrets masked in its strings. */
  json?: unknown;
  /** True when the body was longer than the client's `maxResponseBytes` (then `json` is absent). */
  truncated: boolean;
}

const SECRET_HEADER = /authorization|cookie|token|secret|key/i;
const MAX_DEPTH = 32;

/** Builds the redacted {@link HttpErrorResponse} of a failed answer. */
export function redactedResponse(
  status: number,
  headers: IncomingHttpHeaders,
  json: unknown,
  truncated: boolean,
  secrets: readonly string[],
): HttpErrorResponse {
  const shown: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (SECRET_HEADER.test(name)) shown[name] = REDACTED;
    else shown[name] = Array.isArray(value) ? value.map((v) => mask(v, secrets)) : mask(value, secrets);
  }
  const response: HttpErrorResponse = { status, headers: shown, truncated };
  if (json !== undefined) response.json = redactJson(json, secrets, 0);
  return response;
}

function mask(text: string, secrets: readonly string[]): string {
  return secrets.length === 0 ? text : maskForms(text, secrets);
}

function redactJson(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === "string") return mask(value, secrets);
  if (typeof value !== "object" || value === null) return value;
  // Deeper than any platform's error shape: not worth the stack.
  if (depth >= MAX_DEPTH) return "[too deep]";
  if (Array.isArray(value)) return value.map((item) => redactJson(item, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[mask(key, secrets)] = redactJson(item, secrets, depth + 1);
  return out;
}

/** Attaches `response` to `error` (not enumerable, so it stays out of JSON and logs). */
export function attachResponse<E extends Error>(error: E, response: HttpErrorResponse): E {
  Object.defineProperty(error, "response", { value: response, enumerable: false, configurable: true });
  return error;
}

/**
 * The target's answer behind an error of the HTTP client, or `undefined`
 * when the request never got one (a network error, a timeout) or the error
 * did not come from the client. Follows the `cause` chain, so it also finds
 * the answer behind `retry`'s "gave up after N attempts" error and behind a
 * channel's own error that keeps the client's as `cause`.
 *
 * @example
 * catch (error) {
 *   const response = httpErrorResponse(error);
 *   if (response) bucket.update(response.headers);
 *   throw error;
 * }
 */
export function httpErrorResponse(error: unknown): HttpErrorResponse | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; depth++) {
    const response = (current as { response?: unknown }).response;
    if (isResponse(response)) return response;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function isResponse(value: unknown): value is HttpErrorResponse {
  return typeof value === "object" && value !== null && typeof (value as HttpErrorResponse).status === "number";
}
