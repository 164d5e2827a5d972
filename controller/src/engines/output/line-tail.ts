/** Most characters kept of one line in a tail. */
const MAX_TAIL_LINE_CHARS = 500;

/** The last lines of a stream, kept for failure reasons (bounded in lines and characters). */
export interface LineTail {
  push(line: string): void;
  /** The last `count` non-empty lines, joined with " | "; "" when there are none. */
  text(count?: number): string;
}

/** A tail of at most `maxLines` lines. */
export function createLineTail(maxLines = 20): LineTail {
  const lines: string[] = [];
  return {
    push(line) {
      const trimmed = line.trim();
      if (trimmed === "") return;
      lines.push(trimmed.length > MAX_TAIL_LINE_CHARS ? `${trimmed.slice(0, MAX_TAIL_LINE_CHARS)}…` : trimmed);
      if (lines.length > maxLines) lines.shift();
    },
    text(count = 5) {
      return lines.slice(-count).join(" | ");
    },
  };
}
