import { fitLink, type LinkMarkup, safeHttpUrl, shortUrlLabel, truncateEscaped } from "@errand/chat-kit";

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

/** `<url|label>` with URL and label escaped, or the escaped label alone without a usable URL. */
export function mrkdwnLink(url: string | undefined, label: string, maxUrlLength: number): string {
  return fitMrkdwnLink(url, label, Number.POSITIVE_INFINITY, { maxUrlLength }) ?? escapeMrkdwn(label);
}

/** Options of {@link fitMrkdwnLink}. */
export interface FitLinkOptions {
  /** Longest URL that may be linked. */
  maxUrlLength: number;
  /** Label used, cut to the room left, when the link with `label` does not fit. Default: `label`. */
  shortLabel?: string;
}

// The URL's `&` is escaped too: the platform decodes entities in the whole
// text, links included, so a raw `&lt;` in a query would otherwise change the URL.
const MRKDWN_LINK: LinkMarkup = { escape: escapeMrkdwn, format: (href, label) => `<${escapeMrkdwn(href)}|${label}>` };

/**
 * `<url|label>` in at most `room` characters, or `undefined` when `url`
 * cannot be a link there. The URL is never cut (a cut URL leads somewhere
 * else); when the whole link does not fit, only its label is shortened.
 */
export function fitMrkdwnLink(
  url: string | undefined,
  label: string,
  room: number,
  options: FitLinkOptions,
): string | undefined {
  const safe = safeUrl(url, options.maxUrlLength);
  return safe === undefined ? undefined : fitLink(safe, label, room, MRKDWN_LINK, { shortLabel: options.shortLabel });
}

export { shortUrlLabel };
