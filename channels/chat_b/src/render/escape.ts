import { truncate } from "@errand/channel-sdk";

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
  const escaped = escapeMarkdown(text);
  if (escaped.length <= limit) return escaped;
  let rawLimit = limit;
  for (;;) {
    const candidate = escapeMarkdown(truncate(text, rawLimit));
    if (candidate.length <= limit) return candidate;
    if (rawLimit <= 0) return "";
    rawLimit = Math.min(rawLimit - 1, Math.floor((rawLimit * limit) / candidate.length));
  }
}

/** An http(s) URL safe inside `[label](url)`, at most `maxLength` long; else `undefined`. */
export function safeUrl(url: string | undefined, maxLength: number): string | undefined {
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined;
  const href = parsed.href.replace(/[()<>\s]/g, (c) => encodeURIComponent(c));
  return href.length <= maxLength ? href : undefined;
}

/** `[label](url)` with the label escaped, or the escaped label alone without a usable URL. */
export function markdownLink(url: string | undefined, label: string, maxUrlLength: number): string {
  const safe = safeUrl(url, maxUrlLength);
  const text = escapeMarkdown(label);
  return safe ? `[${text}](${safe})` : text;
}
