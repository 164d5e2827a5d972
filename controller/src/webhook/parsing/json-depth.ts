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
 * the text nests no deeper than `max`. One pass, no allocation: brackets
 * inside strings do not count (a backslash escapes the next character).
 * Works on UTF-8 bytes as well as on text: no byte of a multi-byte UTF-8
 * character is an ASCII bracket or quote. Invalid JSON is the parser's
 * business; this only counts.
 */
export function tooDeepAt(body: Buffer | string, max = MAX_JSON_DEPTH): number {
  const at = typeof body === "string" ? (i: number) => body.charCodeAt(i) : (i: number) => body[i] as number;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = at(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return i;
    } else if ((c === CLOSE_ARRAY || c === CLOSE_OBJECT) && depth > 0) depth--;
  }
  return -1;
}
