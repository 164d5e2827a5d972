/** A log line as the API returns it with `timestamps=true`: the time, a space, the text. */
export interface StampedLine {
  /** Sortable key of the time, to the nanosecond; undefined when the line has no timestamp. */
  key: string | undefined;
  /** Milliseconds since the epoch; undefined when the line has no timestamp. */
  ms: number | undefined;
  text: string;
}

const STAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d) /;

/**
 * Splits the kubelet's RFC 3339 timestamp off a line. The key pads the
 * fraction to nine digits (the kubelet trims trailing zeros), so keys
 * compare as strings in time order.
 */
export function splitTimestamp(line: string): StampedLine {
  const match = STAMP.exec(line);
  if (match === null) return { key: undefined, ms: undefined, text: line };
  const [whole, base = "", fraction = "", zone = "Z"] = match;
  const seconds = Date.parse(`${base}${zone}`);
  if (Number.isNaN(seconds)) return { key: undefined, ms: undefined, text: line };
  const nanos = fraction.padEnd(9, "0");
  return {
    key: `${String(seconds / 1000).padStart(12, "0")}.${nanos}`,
    ms: seconds + Number(nanos.slice(0, 3)),
    text: line.slice(whole.length),
  };
}

/** The `sinceTime` to resume from a key: its whole second (the API may ignore fractions), as RFC 3339. */
export function sinceTimeOf(key: string): string {
  const seconds = Number(key.slice(0, key.indexOf(".")));
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}
