import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** Largest result file read: a result is a summary and a few fields, never megabytes. */
export const MAX_RESULT_FILE_BYTES = 1024 * 1024;

/** What was found at $ERRAND_RESULT_FILE. */
export interface ResultFileRead {
  /** The text, when there was a readable regular file within the limit. */
  text: string | undefined;
  /** Why a file that exists could not be used; undefined when it was read or when there was none. */
  problem: string | undefined;
  /** When it was last written (ms since the epoch), when it exists. */
  modifiedAt: number | undefined;
}

/**
 * Reads the result file the engine wrote. Opened without blocking and
 * checked to be a regular file first, so a FIFO or a device put there
 * cannot hang the run; never throws. Synchronous: a small local file (see
 * run-files.ts for why).
 */
export function readResultFile(path: string): ResultFileRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { text: undefined, problem: undefined, modifiedAt: undefined };
    return {
      text: undefined,
      problem: `the result file ${path} could not be opened (${code ?? (error as Error).message})`,
      modifiedAt: undefined,
    };
  }
  try {
    const stat = fstatSync(fd);
    const modifiedAt = stat.mtimeMs;
    if (!stat.isFile())
      return { text: undefined, problem: `the result file ${path} is not a regular file`, modifiedAt };
    if (stat.size > MAX_RESULT_FILE_BYTES) {
      return { text: undefined, problem: `the result file exceeds 1 MiB (${stat.size} bytes)`, modifiedAt };
    }
    // Read to the end, not to stat's size: the file may still be growing.
    let buffer = Buffer.allocUnsafe(stat.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > MAX_RESULT_FILE_BYTES)
          return { text: undefined, problem: "the result file exceeds 1 MiB", modifiedAt };
        const larger = Buffer.allocUnsafe(MAX_RESULT_FILE_BYTES + 1);
        buffer.copy(larger);
        buffer = larger;
      }
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return { text: buffer.subarray(0, length).toString("utf8"), problem: undefined, modifiedAt };
  } catch (error) {
    return {
      text: undefined,
      problem: `the result file ${path} could not be read (${(error as Error).message})`,
      modifiedAt: undefined,
    };
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Read already; nothing to lose.
    }
  }
}
