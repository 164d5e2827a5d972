/**
 * How a length limit is counted:
 * - `code-units`: UTF-16 code units, JavaScript's `string.length` (most chat
 *   APIs that say "characters" count these or code points);
 * - `code-points`: Unicode code points (`[...text].length`);
 * - `bytes`: UTF-8 bytes (byte-limited fields and headers);
 * - `graphemes`: user-perceived characters (an emoji ZWJ family is one).
 */
export type LengthUnit = "code-units" | "code-points" | "bytes" | "graphemes";

/** Options of {@link truncate}. */
export interface TruncateOptions {
  /** Appended when the text is cut; counts toward the limit. Default "…". */
  ellipsis?: string;
  /** How `limit` is counted. Default `code-units`. */
  unit?: LengthUnit;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const encoder = new TextEncoder();

/** Length of `text` in `unit`. */
export function measure(text: string, unit: LengthUnit = "code-units"): number {
  switch (unit) {
    case "code-units":
      return text.length;
    case "code-points": {
      let count = 0;
      for (const _ of text) count++;
      return count;
    }
    case "bytes":
      return encoder.encode(text).length;
    case "graphemes": {
      let count = 0;
      for (const _ of segmenter.segment(text)) count++;
      return count;
    }
  }
}

/**
 * Cuts `text` so that its length in `unit`, ellipsis included, is at most
 * `limit`. Cuts only between grapheme clusters (`Intl.Segmenter`), so it
 * never splits a surrogate pair, an emoji ZWJ sequence, a flag or a letter
 * from its combining marks. A cluster that alone exceeds what is left is
 * dropped whole. When even the ellipsis does not fit, the text is cut
 * without one. Text that fits is returned unchanged.
 *
 * @example
 * truncate("Hello, world", 8); // "Hello, …"
 * truncate("👨‍👩‍👧 family", 3, { unit: "graphemes" }); // "👨‍👩‍👧 …"
 */
export function truncate(text: string, limit: number, options: TruncateOptions = {}): string {
  const unit = options.unit ?? "code-units";
  const ellipsis = options.ellipsis ?? "…";
  const max = Math.max(0, Math.floor(limit));
  // Cheap exit: a string's code units bound its code points and graphemes.
  if (text.length <= max && unit !== "bytes") return text;
  if (measure(text, unit) <= max) return text;
  const ellipsisLength = measure(ellipsis, unit);
  const withEllipsis = ellipsisLength <= max;
  const budget = withEllipsis ? max - ellipsisLength : max;
  let end = 0;
  let used = 0;
  // Iterate lazily: a 100 kB description is cut after the first few clusters.
  for (const { segment, index } of segmenter.segment(text)) {
    const size = unit === "graphemes" ? 1 : measure(segment, unit);
    if (used + size > budget) break;
    used += size;
    end = index + segment.length;
  }
  return text.slice(0, end) + (withEllipsis ? ellipsis : "");
}
