/** What a masked secret reads as. */
export const MASK = "***";

/**
 * Returns a function that replaces each of `values` in a text with `***`.
 * Longer values are replaced first, so a secret that contains another is
 * masked whole. Empty values are ignored.
 */
export function createSecretMask(values: Iterable<string>): (text: string) => string {
  const list = [...new Set(values)].filter((v) => v !== "").sort((a, b) => b.length - a.length);
  if (list.length === 0) return (text) => text;
  const pattern = new RegExp(list.map(escapeRegExp).join("|"), "g");
  return (text) => text.replace(pattern, MASK);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
