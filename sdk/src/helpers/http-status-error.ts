import { type ChannelError, createChannelError, ErrorCode } from "../errors.js";
import { attachResponse, type HttpErrorResponse } from "./http-error-response.js";

/** What {@link httpStatusError} needs to describe a failed response. */
export interface HttpFailure {
  method: string;
  /** The URL, already redacted. */
  url: string;
  status: number;
  /** A short, redacted body snippet ("" when empty). */
  bodySnippet: string;
  /** Delay the target asked for (429), in ms. */
  retryAfterMs?: number;
  /** The redacted answer, readable later with `httpErrorResponse(error)`. */
  response?: HttpErrorResponse;
}

/**
 * The SDK error code of an HTTP status, or `undefined` for 1xx-3xx.
 *
 * 429 rate limited; 408 and 5xx unavailable (retryable); 401
 * unauthenticated; 403 permission denied; 404 and 410 not found; 400, 413,
 * 414, 422 invalid argument (the message we built is wrong or too large);
 * any other 4xx rejected.
 */
export function errorCodeForStatus(status: number): ErrorCode | undefined {
  if (status < 400) return undefined;
  if (status === 429) return ErrorCode.RateLimited;
  if (status === 408 || status >= 500) return ErrorCode.Unavailable;
  if (status === 401) return ErrorCode.Unauthenticated;
  if (status === 403) return ErrorCode.PermissionDenied;
  if (status === 404 || status === 410) return ErrorCode.NotFound;
  if (status === 400 || status === 413 || status === 414 || status === 422) return ErrorCode.InvalidArgument;
  return ErrorCode.Rejected;
}

const hints: Partial<Record<ErrorCode, string>> = {
  ERR_RATE_LIMITED: "the target rate-limits this sender; slow down (see retryAfterMs)",
  ERR_UNAVAILABLE: "the target failed or is overloaded; trying again later may work",
  ERR_UNAUTHENTICATED: "check that the token or secret is correct and not expired",
  ERR_PERMISSION_DENIED: "the credentials lack a permission (a scope, or the bot is not in the channel)",
  ERR_NOT_FOUND: "check the URL, channel or webhook id; the resource may have been deleted",
  ERR_INVALID_ARGUMENT: "the target refused the message as built (a field too long or malformed)",
  ERR_REJECTED: "the target refused the request; its answer above says why",
};

/** Builds the typed error of a failed HTTP response (status >= 400, or an unexpected 3xx). */
export function httpStatusError(failure: HttpFailure): ChannelError {
  const code = errorCodeForStatus(failure.status) ?? ErrorCode.Rejected;
  const body = failure.bodySnippet ? `: ${failure.bodySnippet}` : "";
  const wait = failure.retryAfterMs !== undefined ? ` (retry after ${failure.retryAfterMs} ms)` : "";
  const message = `${failure.method} ${failure.url} answered HTTP ${failure.status}${wait}${body}`;
  const hint = failure.status < 400 ? "redirects are not followed; use the final URL" : hints[code];
  const error = createChannelError(code, message, { hint, retryAfterMs: failure.retryAfterMs });
  return failure.response ? attachResponse(error, failure.response) : error;
}
