import { safeHttpUrl, truncate, truncateEscaped } from "@errand/channel-sdk";

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

// A shortened label needs a few characters to still say something.
const MIN_LABEL_ROOM = 12;

/**
 * `<url|label>` in at most `room` characters, or `undefined` when `url`
 * cannot be a link there. The URL is never cut (a cut URL leads somewhere
 * else); when the whole link does not fit, only its label is shortened. The
 * URL's `&` is escaped too: the platform decodes entities in the whole text,
 * links included, so a raw `&lt;` in a query would otherwise change the URL.
 */
export function fitMrkdwnLink(url: string | undefined, label: string, room: number, options: FitLinkOptions): string | undefined {
  const safe = safeUrl(url, options.maxUrlLength);
  if (!safe) return undefined;
  const href = escapeMrkdwn(safe);
  const whole = `<${href}|${escapeMrkdwn(label)}>`;
  if (whole.length <= room) return whole;
  const labelRoom = room - href.length - "<|>".length;
  if (labelRoom < MIN_LABEL_ROOM) return undefined;
  return `<${href}|${fitMrkdwn(options.shortLabel ?? label, labelRoom)}>`;
}

/**
 * A short, readable stand-in for a long URL: host and path, "?…" when a query
 * or fragment is left out, at most `max` characters. The scheme is left out
 * too: it tells a reader nothing, and without it no client takes the label
 * for a second URL.
 */
export function shortUrlLabel(url: string, max = 80): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return truncate(url, max);
  }
  const path = parsed.pathname === "/" ? "" : parsed.pathname;
  return truncate(`${parsed.host}${path}${parsed.search || parsed.hash ? "?…" : ""}`, max);
}
