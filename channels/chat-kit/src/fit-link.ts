import { truncate } from "@errand/channel-sdk/helpers";
import { truncateEscaped } from "./truncate-escaped.js";

/** A platform's link markup, for {@link fitLink}. */
export interface LinkMarkup {
  /** Escapes label text for the platform (the same function the channel uses for any user text). */
  escape: (text: string) => string;
  /** The link from a URL ready for the markup and an escaped label, e.g. `(href, label) => \`[${label}](${href})\``. */
  format: (href: string, escapedLabel: string) => string;
}

/** Options of {@link fitLink}. */
export interface FitLinkOptions {
  /** Label used, cut to the room left, when the link with the full label does not fit. Default: the label. */
  shortLabel?: string;
  /** Fewest characters a cut label may keep before the link is given up. Default 12. */
  minLabelRoom?: number;
}

/**
 * A link in at most `room` characters, or `undefined` when `href` cannot be
 * a link there. The URL is never cut (a cut URL leads somewhere else): when
 * the whole link does not fit, only its label is shortened, cut between
 * grapheme clusters and never inside an escape. `href` must already be safe
 * for the markup (see {@link safeHttpUrl}).
 */
export function fitLink(
  href: string,
  label: string,
  room: number,
  markup: LinkMarkup,
  options: FitLinkOptions = {},
): string | undefined {
  const whole = markup.format(href, markup.escape(label));
  if (whole.length <= room) return whole;
  const labelRoom = room - markup.format(href, "").length;
  if (labelRoom < (options.minLabelRoom ?? 12)) return undefined;
  return markup.format(href, truncateEscaped(options.shortLabel ?? label, labelRoom, markup.escape));
}

/**
 * A short, readable stand-in for a long URL: host and path, "?…" when a query
 * or fragment is left out, at most `max` characters. The scheme is left out:
 * it tells a reader nothing, and a label without one is never taken for a
 * second URL (one chat platform prints a link whose label holds `https://`
 * and a host as literal text, discord/discord-api-docs#7721).
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
