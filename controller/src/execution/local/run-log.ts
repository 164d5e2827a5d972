import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
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
  /**
   * No more of the engine's output: later output lines are dropped (notes
   * are still written), so the run's last line stays its end.
   */
  endOutput(): void;
  /** Closes the file. Never throws; later lines are dropped. */
  close(): void;
}

/** Options of {@link openRunLog}. */
export interface RunLogOptions {
  path: string;
  maxBytes: number;
  /** A value never written (the engine's API key): replaced by `[redacted]`. */
  secret: string | undefined;
  /** More values never written, read at each line (a repository token handed to the engine, refreshed). */
  moreSecrets?: () => readonly string[];
  logger: Logger;
}

const REDACTED = "[redacted]";
/** Shorter values would redact ordinary words; no real API key is that short. */
const MIN_SECRET_LENGTH = 8;

/**
 * Opens the log file for appending (creating it, and its folder when that
 * was removed); throws when it cannot be opened. Lines are written at once
 * and synchronously: they are short, the file is local, and a write through
 * the thread pool per line would cost more (see run-files.ts).
 */
export function openRunLog(options: RunLogOptions): RunLog {
  const { path, maxBytes, logger } = options;
  const secret =
    options.secret !== undefined && options.secret.length >= MIN_SECRET_LENGTH ? options.secret : undefined;
  // Appending: nothing of an earlier writer is lost, and notes appended by
  // a restarted controller land after what this one wrote.
  let fd: number | undefined = openAppend(path);
  let broken = false;
  let written = 0;
  let dropped = 0;
  let outputEnded = false;
  const write = (text: string): void => {
    if (broken || fd === undefined) return;
    try {
      let masked = secret !== undefined && text.includes(secret) ? text.split(secret).join(REDACTED) : text;
      for (const more of options.moreSecrets?.() ?? [])
        if (more.length >= MIN_SECRET_LENGTH && masked.includes(more)) masked = masked.split(more).join(REDACTED);
      writeSync(fd, masked);
    } catch (error) {
      broken = true;
      logger.warn("run log: writing failed; the rest of this run's log is lost", { path, error });
    }
  };

  return {
    path,
    output(streamName, line) {
      if (outputEnded) return;
      const suffix = line.truncated ? ` [line truncated: ${line.bytes} bytes]` : "";
      const text = `[${streamName}] ${line.text}${suffix}\n`;
      const size = Buffer.byteLength(text);
      if (dropped === 0 && written + size <= maxBytes) {
        written += size;
        write(text);
        return;
      }
      if (dropped === 0)
        write(
          `[errand] log truncated at ${maxBytes} bytes (execution.local.log_max_bytes); later output is not kept\n`,
        );
      dropped += size;
    },
    note(text) {
      write(`[errand] ${text}\n`);
    },
    endOutput() {
      outputEnded = true;
    },
    get droppedBytes() {
      return dropped;
    },
    close() {
      if (fd === undefined) return;
      const open = fd;
      fd = undefined;
      try {
        closeSync(open);
      } catch {
        // Nothing is buffered here: every line was written already.
      }
    },
  };
}

function openAppend(path: string): number {
  try {
    return openSync(path, "a", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(dirname(path), { recursive: true });
  return openSync(path, "a", 0o600);
}
