import { type ChannelError, isChannelError, toChannelError, UnavailableError } from "../errors.js";

/**
 * Error codes of failures on the way to the target (connection refused or
 * reset, DNS trouble, undici socket and timeout errors). Trying again later
 * may succeed, so they map to the retryable `UnavailableError`.
 */
export const TRANSIENT_NETWORK_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
]);

/** True when `error` (or its `cause`) is a network failure worth retrying. */
export function isTransientNetworkError(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && TRANSIENT_NETWORK_CODES.has(code)) return true;
    if (/socket hang up|other side closed/i.test(current.message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Classifies anything a delivery attempt threw into a {@link ChannelError}.
 *
 * - a `ChannelError` stays as it is;
 * - when `callerSignal` has aborted, the caller cancelled: the result is
 *   `toChannelError(callerSignal.reason)` (never retried);
 * - a network failure (see {@link isTransientNetworkError}) becomes an
 *   `UnavailableError` (retryable);
 * - an `AbortError`/`TimeoutError` while the caller's signal is still live
 *   means the attempt's own timeout fired: `UnavailableError` (retryable),
 *   because the call as a whole still has time;
 * - anything else goes through `toChannelError` (`InternalError`).
 */
export function toAttemptError(error: unknown, callerSignal?: AbortSignal): ChannelError {
  if (isChannelError(error)) return error;
  if (callerSignal?.aborted) return toChannelError(callerSignal.reason);
  const message = error instanceof Error ? error.message : String(error);
  if (isTransientNetworkError(error)) {
    return new UnavailableError(`network error: ${message}`, {
      cause: error,
      hint: "check that the target is reachable from here; the call will be retried",
    });
  }
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return new UnavailableError(`the attempt timed out: ${message}`, { cause: error });
  }
  return toChannelError(error);
}
