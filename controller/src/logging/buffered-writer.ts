/** Options of {@link createBufferedWriter}. */
export interface BufferedWriterOptions {
  /** Where flushed text goes; default standard error. */
  write?: (text: string) => void;
  /** Flush at once beyond this many buffered characters; default 64 KiB. */
  maxBuffered?: number;
}

/** A line writer that batches, plus `flush` for shutdown. */
export interface BufferedWriter {
  (line: string): void;
  flush(): void;
}

/**
 * Collects log lines and writes them once per event-loop turn. Under load a
 * request log line each costs one write(2) otherwise; batched, a burst of
 * requests shares one. Lines are never reordered and a full buffer flushes
 * at once, so memory stays bounded. Call `flush` before exiting.
 */
export function createBufferedWriter(options: BufferedWriterOptions = {}): BufferedWriter {
  const out = options.write ?? ((text: string) => process.stderr.write(text));
  const max = options.maxBuffered ?? 64 * 1024;
  let buffer = "";
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (buffer === "") return;
    const text = buffer;
    buffer = "";
    out(text);
  };
  const writer = ((line: string) => {
    buffer += line;
    if (buffer.length >= max) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  }) as BufferedWriter;
  writer.flush = flush;
  return writer;
}
