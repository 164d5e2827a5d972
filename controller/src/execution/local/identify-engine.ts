import type { LocalAttachment } from "./attachment.js";
import { bootId, isZombie, liveGroupMembers, processStartTime } from "./proc-stat.js";
import { processExists } from "./process-group.js";

/** What is left of a recorded engine process, as far as can be proved. */
export type EngineRemains =
  /** The engine itself still runs: same pid, same start time, same boot. */
  | { kind: "running" }
  /** The engine ended, processes it started still run in its group. */
  | { kind: "leftovers"; count: number }
  /** Nothing of it runs (the pid may be reused by an unrelated process). */
  | { kind: "gone" }
  /** A process has its pid, and nothing proves whose it is. */
  | { kind: "unknown" };

/**
 * Identifies a recorded engine without trusting its pid alone. A group
 * whose leader is gone counts as the engine's leftovers only when every
 * live member started no earlier than the engine did: a group is made by
 * its leader at start (setsid), and only its descendants can join it.
 */
export function identifyEngine(attachment: LocalAttachment): EngineRemains {
  const { pid, pgid, startTime } = attachment;
  if (startTime === undefined || attachment.bootId === undefined)
    return processExists(pid) ? { kind: "unknown" } : { kind: "gone" };
  // After a reboot nothing of the run can still run.
  if (bootId() !== attachment.bootId) return { kind: "gone" };
  const current = processStartTime(pid);
  if (current === startTime && !isZombie(pid)) return { kind: "running" };
  // A new process with this pid: the group had emptied before the pid could be reused.
  if (current !== undefined && current !== startTime) return { kind: "gone" };
  const members = liveGroupMembers(pgid) ?? [];
  if (members.length > 0 && members.every((member) => member.startTime >= startTime))
    return { kind: "leftovers", count: members.length };
  return { kind: "gone" };
}
