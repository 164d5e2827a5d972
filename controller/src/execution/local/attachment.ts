/**
 * What the local backend stores with a Running run, to find its process
 * again after a controller restart. A pid alone is not enough: pids are
 * reused, so the process must also have the same start time within the
 * same boot of the same machine.
 */
export interface LocalAttachment {
  pid: number;
  /** The engine's process group (the same number as pid: it leads its own group). */
  pgid: number;
  /** /proc/<pid>/stat field 22, clock ticks since boot; undefined where /proc is missing. */
  startTime: number | undefined;
  /** /proc/sys/kernel/random/boot_id at start. */
  bootId: string | undefined;
  hostname: string;
  workspace: string;
  resultFile: string;
  logFile: string;
}

/** The attachment as stored (a plain JSON object). */
export function toRecord(attachment: LocalAttachment): Record<string, unknown> {
  return { ...attachment };
}

/** Reads a stored attachment back; undefined when it is missing or not one the local backend wrote. */
export function parseAttachment(value: Record<string, unknown> | undefined): LocalAttachment | undefined {
  if (value === undefined) return undefined;
  const { pid, pgid, startTime, bootId, hostname, workspace, resultFile, logFile } = value;
  if (!isPid(pid) || !isPid(pgid)) return undefined;
  if (
    typeof hostname !== "string"
    || typeof workspace !== "string"
    || typeof resultFile !== "string"
    || typeof logFile !== "string"
  )
    return undefined;
  return {
    pid,
    pgid,
    startTime: typeof startTime === "number" && Number.isSafeInteger(startTime) ? startTime : undefined,
    bootId: typeof bootId === "string" ? bootId : undefined,
    hostname,
    workspace,
    resultFile,
    logFile,
  };
}

function isPid(value: unknown): value is number {
  // 1 would make "the group" every process of the init session; never ours.
  return typeof value === "number" && Number.isSafeInteger(value) && value > 1;
}
