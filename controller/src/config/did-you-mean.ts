/**
 * The candidate closest to `name` by edit distance (insertions, deletions,
 * substitutions and swaps of neighbours), when it is close enough to be a
 * typo: at most a third of the longer name's length, and at most 3 edits.
 * Case differences count as half an edit. Failing that, a candidate that
 * `name` begins with or that begins with `name` (`warning` → `warn`,
 * `url` → `url_secret`).
 * Returns undefined otherwise.
 */
export function didYouMean(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const list = [...candidates];
  for (const candidate of list) {
    const d = editDistance(name, candidate);
    const limit = Math.min(3, Math.max(1, Math.floor(Math.max(name.length, candidate.length) / 3)));
    if (d <= limit && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (best !== undefined || name.length < 3) return best;
  const lower = name.toLowerCase();
  return list.find((c) => c.length >= 3 && (lower.startsWith(c.toLowerCase()) || c.toLowerCase().startsWith(lower)));
}

/** Optimal string alignment distance; a change of case only costs 0.5. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const x = a[i - 1] as string;
      const y = b[j - 1] as string;
      const cost = x === y ? 0 : x.toLowerCase() === y.toLowerCase() ? 0.5 : 1;
      let value = Math.min((d[i - 1]?.[j] ?? 0) + 1, (d[i]?.[j - 1] ?? 0) + 1, (d[i - 1]?.[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && x === b[j - 2] && a[i - 2] === y) value = Math.min(value, (d[i - 2]?.[j - 2] ?? 0) + 1);
      (d[i] as number[])[j] = value;
    }
  }
  return d[a.length]?.[b.length] ?? 0;
}
