/** One line of output: its text (at most the cap, newline and a final CR removed) and how long it really was. */
export interface SplitLine {
  text: string;
  /** Bytes of the whole line as the process wrote it; above the cap when it was cut. */
  bytes: number;
  truncated: boolean;
}

/** Cuts a byte stream into lines. */
export interface LineSplitter {
  push(chunk: Buffer): void;
  /** Emits the last line when the stream ended without a newline. */
  end(): void;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * Splits bytes on "\n" (safe in UTF-8: no multi-byte character contains
 * 0x0a) and hands each line to `onLine`. A line longer than `maxLineBytes`
 * keeps its first `maxLineBytes` (cut at a character boundary); the rest of
 * it is counted and dropped, so a process that never writes a newline
 * cannot make the controller hold its whole output.
 */
export function createLineSplitter(maxLineBytes: number, onLine: (line: SplitLine) => void): LineSplitter {
  let parts: Buffer[] = [];
  let kept = 0;
  let total = 0;
  let open = false;

  const append = (segment: Buffer): void => {
    open = true;
    total += segment.length;
    if (kept >= maxLineBytes || segment.length === 0) return;
    const take = Math.min(segment.length, maxLineBytes - kept);
    // Copied: a view would keep the whole (possibly large) chunk alive.
    parts.push(Buffer.from(segment.subarray(0, take)));
    kept += take;
  };

  const emit = (): void => {
    let buffer = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, kept);
    const truncated = total > kept;
    if (truncated) buffer = buffer.subarray(0, utf8Boundary(buffer));
    else if (buffer.length > 0 && buffer[buffer.length - 1] === CR) buffer = buffer.subarray(0, buffer.length - 1);
    const line: SplitLine = { text: buffer.toString("utf8"), bytes: total, truncated };
    parts = [];
    kept = 0;
    total = 0;
    open = false;
    onLine(line);
  };

  return {
    push(chunk) {
      let start = 0;
      for (let index = chunk.indexOf(NEWLINE, start); index >= 0; index = chunk.indexOf(NEWLINE, start)) {
        append(chunk.subarray(start, index));
        emit();
        start = index + 1;
      }
      if (start < chunk.length) append(chunk.subarray(start));
    },
    end() {
      if (open) emit();
    },
  };
}

/** Length of the longest prefix of `buffer` that does not end inside a UTF-8 character. */
function utf8Boundary(buffer: Buffer): number {
  const end = buffer.length;
  for (let continuation = 0; continuation < 4 && continuation < end; continuation++) {
    const byte = buffer[end - continuation - 1] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    // Complete (or not valid UTF-8 anyway, which decoding replaces): keep it.
    return needed > continuation + 1 ? end - continuation - 1 : end;
  }
  return end;
}
