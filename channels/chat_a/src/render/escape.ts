import { safeHttpUrl, truncateEscaped } from "@errand/channel-sdk";

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
  return truncateEscaped(text, limit, escapeMrkdwn);
}

/**
 * A URL that is safe inside `<url|label>`: http(s) only, at most `maxLength`
 * long, with the characters that would end the link (`|`, `<`, `>`) and
 * whitespace percent-encoded. Anything else gives `undefined`.
 */
export function safeUrl(url: string | undefined, maxLength: number): string | undefined {
  return safeHttpUrl(url, maxLength, /[|<>\s]/g);
}

/** `<url|label>` with the label escaped, or the escaped label alone without a usable URL. */
export function mrkdwnLink(url: string | undefined, label: string, maxUrlLength: number): string {
  const safe = safeUrl(url, maxUrlLength);
  const text = escapeMrkdwn(label);
  return safe ? `<${safe}|${text}>` : text;
}
