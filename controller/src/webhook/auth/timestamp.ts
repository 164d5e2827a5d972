/** How far a signed timestamp may be from server time, either way (spec section 5.4). */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

/**
 * Checks a Unix timestamp in seconds against the server clock. Returns a
 * 401 message or undefined. Future timestamps are refused as well as old
 * ones, so a captured request cannot be replayed later by pre-dating it.
 */
export function checkTimestamp(value: string | undefined, header: string, nowMs: number): string | undefined {
  if (value === undefined) return `missing timestamp header ${header}`;
  if (!/^\d{1,12}$/.test(value.trim())) return `timestamp in ${header} is not a Unix time in seconds`;
  const skew = Math.abs(nowMs / 1000 - Number(value));
  return skew > TIMESTAMP_TOLERANCE_SECONDS
    ? `timestamp in ${header} is more than ${TIMESTAMP_TOLERANCE_SECONDS / 60} minutes away from server time`
    : undefined;
}
