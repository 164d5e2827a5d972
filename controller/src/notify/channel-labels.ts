/** An entry of `notifications.channels` as far as its label goes. */
export interface LabelInput {
  backend: string;
  name?: string | undefined;
}

/** Labels of the channel entries and the clashes between them. */
export interface ChannelLabels {
  labels: string[];
  /** Entries whose label an earlier entry already has: `[earlier index, later index]`. */
  clashes: Array<[number, number]>;
}

/**
 * The label of each channel entry, in file order: its `name` when given;
 * else its backend for the first unnamed entry of that backend, then
 * `backend#2`, `backend#3`, ...
 */
export function channelLabels(entries: readonly LabelInput[]): ChannelLabels {
  const unnamed = new Map<string, number>();
  const owner = new Map<string, number>();
  const labels: string[] = [];
  const clashes: Array<[number, number]> = [];
  entries.forEach((entry, index) => {
    let label = entry.name;
    if (label === undefined) {
      const n = (unnamed.get(entry.backend) ?? 0) + 1;
      unnamed.set(entry.backend, n);
      label = n === 1 ? entry.backend : `${entry.backend}#${n}`;
    }
    const first = owner.get(label);
    if (first === undefined) owner.set(label, index);
    else clashes.push([first, index]);
    labels.push(label);
  });
  return { labels, clashes };
}
