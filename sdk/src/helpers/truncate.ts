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

// Made on first use: building a segmenter loads ICU's break rules, 10–17 ms,
// which every plugin would otherwise pay at start-up for an error path.
let graphemeSegmenter: Intl.Segmenter | undefined;
const segmenter = () => (graphemeSegmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" }));
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
    case "graphemes":
      return countGraphemes(text);
  }
}

const CHUNK = 4096;

// Segments in chunks (see cutPoint for why that is both fast and exact): a
// chunk's last segment is re-read as the start of the next chunk.
function countGraphemes(text: string): number {
  let count = 0;
  let start = 0;
  while (start < text.length) {
    const stop = Math.min(text.length, start + CHUNK);
    let lastStart = start;
    let inChunk = 0;
    for (const { index } of segmenter().segment(text.slice(start, stop))) {
      inChunk++;
      lastStart = start + index;
    }
    if (stop >= text.length) return count + inChunk;
    // A single cluster longer than a chunk: count it as one and skip it whole.
    if (lastStart === start) {
      count += 1;
      start = start + cutPoint(text.slice(start), 1, "graphemes");
      continue;
    }
    count += inChunk - 1;
    start = lastStart;
  }
  return count;
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
  if (unit === "graphemes") {
    if (cutPoint(text, max, unit) === text.length) return text;
  } else if (measure(text, unit) <= max) {
    return text;
  }
  const ellipsisLength = measure(ellipsis, unit);
  const withEllipsis = ellipsisLength <= max;
  const budget = withEllipsis ? max - ellipsisLength : max;
  const end = cutPoint(text, budget, unit);
  return text.slice(0, end) + (withEllipsis ? ellipsis : "");
}

/**
 * End (in code units) of the longest prefix of whole grapheme clusters whose
 * length in `unit` is at most `budget`.
 *
 * V8's segmenter slows down with the length of the whole string, so only a
 * window is segmented, doubled until the budget runs out inside it. Whether
 * position p is a cluster boundary depends only on the characters up to p,
 * so every boundary inside the window is a boundary of the full text; only
 * the window's last segment may really be longer, and then it would not fit
 * either.
 */
function cutPoint(text: string, budget: number, unit: LengthUnit): number {
  // A unit of budget covers at most 2 code units, so this window usually suffices.
  let window = Math.min(text.length, 2 * budget + 64);
  for (;;) {
    let end = 0;
    let used = 0;
    for (const { segment, index } of segmenter().segment(window < text.length ? text.slice(0, window) : text)) {
      const size = unit === "graphemes" ? 1 : measure(segment, unit);
      if (used + size > budget) return end;
      used += size;
      end = index + segment.length;
    }
    if (window >= text.length) return end;
    window = Math.min(text.length, window * 2);
  }
}
