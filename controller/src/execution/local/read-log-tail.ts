import { open } from "node:fs/promises";
import { ControllerError, ControllerErrorCode } from "../../errors.js";

/**
 * The last `maxBytes` of a log file, starting at a line boundary when the
 * file is longer (the first, partial line is dropped); undefined when the
 * file does not exist.
 */
export async function readLogTail(path: string, maxBytes: number): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ControllerError(
      ControllerErrorCode.Internal,
      `the run log ${path} could not be read: ${(error as Error).message}`,
      {
        cause: error,
        hint: "check that the controller's user may read execution.local.log_dir",
      },
    );
  }
  try {
    const size = (await handle.stat()).size;
    const want = Number.isFinite(maxBytes) ? Math.max(0, Math.min(size, Math.floor(maxBytes))) : size;
    const buffer = Buffer.alloc(want);
    const { bytesRead } = await handle.read(buffer, 0, want, size - want);
    let tail = buffer.subarray(0, bytesRead);
    if (want < size) {
      const newline = tail.indexOf(0x0a);
      if (newline >= 0) tail = tail.subarray(newline + 1);
    }
    return tail.toString("utf8");
  } finally {
    await handle.close();
  }
}
