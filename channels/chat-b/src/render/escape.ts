import { truncate } from "@errand/channel-sdk/helpers";
import { fitLink, type LinkMarkup, safeHttpUrl, shortUrlLabel, truncateEscaped } from "@errand/chat-kit";

/**
 * Escapes the platform's markdown so user text shows as written: emphasis,
 * code, spoilers, quotes, headings, lists, masked links and mentions
 * (`<@id>`) all get a backslash.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\*_~`|[\]()<>]/g, (c) => `\\${c}`)
    .replace(/^(\s*)([#>-]|\d+\.)/gm, (_, space: string, mark: string) => `${space}\\${mark}`);
}

/** Escapes `text` and cuts it so the result is at most `limit` long, ending with "…" when cut. */
export function fitMarkdown(text: string, limit: number): string {
  return truncateEscaped(text, limit, escapeMarkdown);
}

/** An http(s) URL safe inside `[label](url)`, at most `maxLength` long; else `undefined`. */
export function safeUrl(url: string | undefined, maxLength: number): string | undefined {
  return safeHttpUrl(url, maxLength, /[()<>\s]/g);
}

/** `[label](url)` with the label escaped, or the escaped label alone without a usable URL. */
export function markdownLink(url: string | undefined, label: string, maxUrlLength: number): string {
  return fitMarkdownLink(url, label, Number.POSITIVE_INFINITY, { maxUrlLength }) ?? escapeMarkdown(label);
}

/** Options of {@link fitMarkdownLink}. */
export interface FitLinkOptions {
  /** Longest URL that may be linked. */
  maxUrlLength: number;
  /** Label used, cut to the room left, when the link with `label` does not fit. Default: `label`. */
  shortLabel?: string;
}

const MARKDOWN_LINK: LinkMarkup = { escape: escapeMarkdown, format: (href, label) => `[${label}](${href})` };

/**
 * `[label](url)` in at most `room` characters, or `undefined` when `url`
 * cannot be a link there. The URL is never cut (a cut URL leads somewhere
 * else); when the whole link does not fit, only its label is shortened.
 */
export function fitMarkdownLink(
  url: string | undefined,
  label: string,
  room: number,
  options: FitLinkOptions,
): string | undefined {
  const safe = safeUrl(url, options.maxUrlLength);
  return safe === undefined ? undefined : fitLink(safe, label, room, MARKDOWN_LINK, { shortLabel: options.shortLabel });
}

export { shortUrlLabel };

/**
 * Markdown this channel built, cut to at most `limit` characters with "…",
 * as a last resort: the renderers keep inside the limits, so this only
 * guards a future mistake. The cut falls between grapheme clusters, never
 * inside a `[label](url)` link (a cut URL leads somewhere else) and never
 * between a backslash and the character it escapes.
 */
export function cutMarkdown(markdown: string, limit: number): string {
  if (markdown.length <= limit) return markdown;
  const cut = truncate(markdown, limit);
  const end = safeEnd(markdown, cut.endsWith("…") ? cut.length - 1 : cut.length);
  return end < cut.length ? `${markdown.slice(0, end)}…` : cut;
}

// User text has `\`, `[`, `]`, `(` and `)` escaped and link URLs have `(`
// and `)` percent-encoded, so an unescaped `[` always opens a link of ours
// and the next unescaped `)` closes it.
function safeEnd(markdown: string, end: number): number {
  let open = -1;
  for (let i = 0; i < end; i++) {
    const c = markdown[i];
    if (c === "\\") {
      if (i + 1 === end) return open >= 0 ? open : i;
      i++;
    } else if (c === "[" && open < 0) {
      open = i;
    } else if (c === ")" && open >= 0) {
      open = -1;
    }
  }
  return open >= 0 ? open : end;
}
