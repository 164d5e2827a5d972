const SECONDS = /^\s*(\d+(?:\.\d+)?)\s*$/;
// An HTTP date always names a weekday or month; requiring a letter keeps
// Date.parse from reading "-1" or "2024" as a year.
const HAS_LETTER = /[a-z]/i;

/**
 * Parses an HTTP `Retry-After` value: delay-seconds (`"120"`, also a float
 * such as `"1.5"`) or an HTTP date (`"Wed, 21 Oct 2015 07:28:00 GMT"`).
 * Returns the delay in milliseconds (0 for a date in the past), or
 * `undefined` when the value is missing or unreadable.
 *
 * @param value - The header value (an array takes its first element).
 * @param now - The current time in ms since the epoch, for dates.
 */
export function parseRetryAfter(
  value: string | readonly string[] | number | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? Math.ceil(value * 1000) : undefined;
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== "string") return undefined;
  const seconds = SECONDS.exec(text);
  if (seconds) return Math.ceil(Number(seconds[1]) * 1000);
  if (!HAS_LETTER.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * Reads a rate limit's delay from a parsed JSON body: `retry_after` in
 * seconds, possibly a float (chat B / Discord-style `{"retry_after": 0.25}`),
 * also nested as `{"parameters": {"retry_after": 3}}`. Returns milliseconds
 * or `undefined`.
 */
export function parseRetryAfterBody(body: unknown): number | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const direct = parseRetryAfter(asSeconds(record.retry_after));
  if (direct !== undefined) return direct;
  const parameters = record.parameters;
  if (typeof parameters === "object" && parameters !== null) {
    return parseRetryAfter(asSeconds((parameters as Record<string, unknown>).retry_after));
  }
  return undefined;
}

function asSeconds(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && SECONDS.test(value)) return Number(value);
  return undefined;
}
