/**
 * How deep a webhook body's arrays and objects may nest. Real payloads
 * nest under 15 levels; a body of thousands of `[` costs the parser memory
 * the process keeps, so it is refused before it is parsed (docs/webhooks.md).
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The offset of the first bracket that opens level `max + 1`, or -1 when
 * the text nests no deeper than `max`: an offset in bytes for a Buffer, in
 * characters for a string. One pass; brackets inside strings do not count
 * (a backslash escapes the next character). Invalid JSON is the parser's
 * business; this only counts.
 */
export function tooDeepAt(body: Buffer | string, max = MAX_JSON_DEPTH): number {
  if (typeof body !== "string") return tooDeepInBytes(body, max);
  // Form payloads only (rare): the byte scan, its offset turned back into characters.
  const bytes = Buffer.from(body, "utf8");
  const at = tooDeepInBytes(bytes, max);
  return at === -1 ? -1 : bytes.subarray(0, at).toString("utf8").length;
}

/**
 * The scan itself, on bytes only: every request's body goes through it, and
 * one monomorphic loop over a Buffer, with the native `indexOf` jumping over
 * each string, costs a tenth of a per-character loop that also takes strings
 * (docs/benchmarks.md). No byte of a multi-byte UTF-8 character is an ASCII
 * bracket, quote or backslash.
 */
function tooDeepInBytes(body: Buffer, max: number): number {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === QUOTE) {
      i = closingQuote(body, i);
      if (i === -1) return -1;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return i;
    } else if ((c === CLOSE_ARRAY || c === CLOSE_OBJECT) && depth > 0) depth--;
  }
  return -1;
}

/** The offset of the quote that closes the string opened at `open`, or -1 when none does. */
function closingQuote(body: Buffer, open: number): number {
  for (let from = open + 1; ; ) {
    const quote = body.indexOf(QUOTE, from);
    if (quote === -1) return -1;
    let backslashes = 0;
    while (body[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    // An even run of backslashes escapes itself, not the quote.
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}
