import { type TruncateOptions, truncate } from "@errand/channel-sdk/helpers";

/**
 * Escapes `text` for a platform's markup and cuts it so the *escaped* result
 * fits `limit` (in code units): the cut falls between grapheme clusters of the
 * raw text, so it never splits a character or an escape sequence such as
 * `&amp;`, and ends with the ellipsis when cut.
 *
 * @example truncateEscaped("a & b", 5, escapeMrkdwn) // "a &amp;…" is too long → "a …"
 */
export function truncateEscaped(
  text: string,
  limit: number,
  // biome-ignore lint/suspicious/noShadowRestrictedNames: `escape` names the caller's escaping function; the deprecated global is never used
  escape: (text: string) => string,
  options: Omit<TruncateOptions, "unit"> = {},
): string {
  const escaped = escape(text);
  if (escaped.length <= limit) return escaped;
  let rawLimit = Math.max(0, Math.floor(limit));
  for (;;) {
    const candidate = escape(truncate(text, rawLimit, options));
    if (candidate.length <= limit) return candidate;
    if (rawLimit <= 0) return "";
    // Shrink in proportion to the overshoot: escaping makes text longer than raw.
    rawLimit = Math.min(rawLimit - 1, Math.floor((rawLimit * limit) / candidate.length));
  }
}
