/**
 * An http(s) URL made safe to embed in a platform's link markup: characters
 * that would end the link (`unsafe`, e.g. `/[|<>\s]/g` for `<url|label>` or
 * `/[()<>\s]/g` for `[label](url)`) are percent-encoded. Anything that is not
 * an http(s) URL, or that is longer than `maxLength` once encoded, gives
 * `undefined`, so a renderer can fall back to plain text.
 */
export function safeHttpUrl(url: string | undefined, maxLength: number, unsafe: RegExp): string | undefined {
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined;
  const pattern = unsafe.global ? unsafe : new RegExp(unsafe.source, `${unsafe.flags}g`);
  const href = parsed.href.replace(pattern, percentEncode);
  return href.length <= maxLength ? href : undefined;
}

// encodeURIComponent leaves `(`, `)`, `!`, `*` and `'` alone; a link's markup may not.
function percentEncode(text: string): string {
  let out = "";
  for (const byte of new TextEncoder().encode(text)) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  return out;
}
