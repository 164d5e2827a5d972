/** A progress text flattened to one short paragraph for chat messages; undefined when nothing is left. */
export function progressText(text: string, max = 300): string | undefined {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat === "") return undefined;
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
