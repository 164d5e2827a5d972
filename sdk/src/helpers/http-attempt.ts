import { InvalidArgumentError } from "../errors.js";
import type { HttpClientOptions, HttpRequest } from "./http-types.js";

/** How much earlier than the retry budget an attempt's own timeout fires. */
const BUDGET_MARGIN_MS = 100;

/**
 * One attempt's timeout: the configured one, checked, and inside the client's
 * own retry cut to what is left of the budget. Throws InvalidArgumentError for
 * a timeout that is not a number of milliseconds >= 0.
 */
export function attemptTimeoutMs(
  options: HttpClientOptions,
  req: HttpRequest,
  where: string,
  timeLeftMs?: () => number,
): number {
  const configuredMs = req.timeoutMs ?? options.timeoutMs ?? 2500;
  if (typeof configuredMs !== "number" || Number.isNaN(configuredMs) || configuredMs < 0) {
    throw new InvalidArgumentError(
      `${where}: timeoutMs must be a number of milliseconds >= 0, got ${String(configuredMs)}`,
      {
        hint: "set the HTTP client's timeoutMs (one attempt's timeout) to a number, 2500 by default",
      },
    );
  }
  // Inside its own retry, an attempt ends a little before the budget does,
  // so it fails with its own error (what the target did) rather than
  // being cut off by the budget. Read after the throttle wait.
  return timeLeftMs ? Math.max(1, Math.min(configuredMs, timeLeftMs() - BUDGET_MARGIN_MS)) : configuredMs;
}

/** The headers and body an attempt sends: the client's and the request's headers, and `json` encoded as such. */
export function encodeRequest(
  options: HttpClientOptions,
  req: HttpRequest,
): { headers: Record<string, string>; body: HttpRequest["body"] } {
  const headers: Record<string, string> = { "user-agent": options.userAgent ?? "errand-channel-sdk" };
  Object.assign(headers, options.headers, req.headers);
  let body = req.body;
  if (req.json !== undefined) {
    body = JSON.stringify(req.json);
    if (!Object.keys(headers).some((name) => name.toLowerCase() === "content-type")) {
      headers["content-type"] = "application/json; charset=utf-8";
    }
  }
  return { headers, body };
}
