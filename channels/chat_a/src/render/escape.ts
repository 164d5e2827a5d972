import { truncate } from "@errand/channel-sdk";

/**
 * Escapes the three characters chat A's mrkdwn gives meaning to: `&`, `<`
 * and `>` (https://api.slack.com/reference/surfaces/formatting#escaping).
 * This also defuses user text that tries `<!channel>` or `<@U123>` mentions
 * and `<url|label>` links.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Escapes `text` and cuts it so the escaped result is at most `limit`
 * characters, between grapheme clusters and never inside an entity such as
 * `&amp;`, ending with "…" when cut.
 */
export function fitMrkdwn(text: string, limit: number): string {
  const escaped = escapeMrkdwn(text);
  if (escaped.length <= limit) return escaped;
  let rawLimit = limit;
  for (;;) {
    const candidate = escapeMrkdwn(truncate(text, rawLimit));
    if (candidate.length <= limit || rawLimit <= 0) return candidate.length <= limit ? candidate : "";
    // Shrink in proportion to the overshoot: entities make escaped text longer than raw.
    rawLimit = Math.min(rawLimit - 1, Math.floor((rawLimit * limit) / candidate.length));
  }
}

/**
 * A URL that is safe inside `<url|label>`: http(s) only, at most `maxLength`
 * long, with the characters that would end the link (`|`, `<`, `>`) and
 * whitespace percent-encoded. Anything else gives `undefined`.
 */
export function safeUrl(url: string | undefined, maxLength: number): string | undefined {
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined;
  const href = parsed.href.replace(/[|<>\s]/g, (c) => encodeURIComponent(c));
  return href.length <= maxLength ? href : undefined;
}

/** `<url|label>` with the label escaped, or the escaped label alone without a usable URL. */
export function mrkdwnLink(url: string | undefined, label: string, maxUrlLength: number): string {
  const safe = safeUrl(url, maxUrlLength);
  const text = escapeMrkdwn(label);
  return safe ? `<${safe}|${text}>` : text;
}
