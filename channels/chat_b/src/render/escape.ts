import { safeHttpUrl, truncateEscaped } from "@errand/channel-sdk";

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
  const safe = safeUrl(url, maxUrlLength);
  const text = escapeMarkdown(label);
  return safe ? `[${text}](${safe})` : text;
}
