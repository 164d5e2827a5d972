import type { WriteStream } from "node:fs";
import { open } from "node:fs/promises";
import { finished } from "node:stream/promises";
import type { Logger } from "@errand/channel-sdk";
import type { SplitLine } from "./line-splitter.js";

/**
 * A run's log file. Every line has a prefix naming where it came from:
 * `[stdout] `, `[stderr] ` (the engine) or `[errand] ` (the backend: start,
 * exit, truncation). A line cut at the line cap ends with
 * ` [line truncated: N bytes]`.
 */
export interface RunLog {
  readonly path: string;
  /** One line of the engine's output; dropped (and counted) once the cap is reached. */
  output(stream: "stdout" | "stderr", line: SplitLine): void;
  /** One line of the backend's own; written even past the cap (a handful per run). */
  note(text: string): void;
  /** Bytes of output the cap dropped so far (prefixes included). */
  readonly droppedBytes: number;
  /** Flushes and closes the file. Never rejects. */
  close(): Promise<void>;
}

/** Options of {@link openRunLog}. */
export interface RunLogOptions {
  path: string;
  maxBytes: number;
  /** A value never written (the engine's API key): replaced by `[redacted]`. */
  secret: string | undefined;
  logger: Logger;
}

const REDACTED = "[redacted]";
/** Shorter values would redact ordinary words; no real API key is that short. */
const MIN_SECRET_LENGTH = 8;

/** Opens the log file for appending (creating it); rejects when it cannot be opened. */
export async function openRunLog(options: RunLogOptions): Promise<RunLog> {
  const { path, maxBytes, logger } = options;
  const secret = options.secret !== undefined && options.secret.length >= MIN_SECRET_LENGTH ? options.secret : undefined;
  // Appending: nothing of an earlier writer is lost, and notes appended by
  // a restarted controller land after what this one wrote.
  const handle = await open(path, "a", 0o600);
  const stream: WriteStream = handle.createWriteStream({ encoding: "utf8" });
  let broken = false;
  stream.on("error", (error) => {
    if (!broken) logger.warn("run log: writing failed; the rest of this run's log is lost", { path, error });
    broken = true;
  });
  let written = 0;
  let dropped = 0;
  const write = (text: string): void => {
    if (broken) return;
    stream.write(secret !== undefined && text.includes(secret) ? text.split(secret).join(REDACTED) : text);
  };

  return {
    path,
    output(streamName, line) {
      const suffix = line.truncated ? ` [line truncated: ${line.bytes} bytes]` : "";
      const text = `[${streamName}] ${line.text}${suffix}\n`;
      const size = Buffer.byteLength(text);
      if (dropped === 0 && written + size <= maxBytes) {
        written += size;
        write(text);
        return;
      }
      if (dropped === 0) write(`[errand] log truncated at ${maxBytes} bytes (execution.local.log_max_bytes); later output is not kept\n`);
      dropped += size;
    },
    note(text) {
      write(`[errand] ${text}\n`);
    },
    get droppedBytes() {
      return dropped;
    },
    async close() {
      if (!stream.destroyed) stream.end();
      // A stream that failed is already destroyed: finished() settles at once.
      await finished(stream).catch(() => undefined);
    },
  };
}
