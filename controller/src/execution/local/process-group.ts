import { setTimeout as sleep } from "node:timers/promises";

/** How {@link terminateGroup} ended. */
export type GroupEnd = "already-gone" | "terminated" | "killed";

const POLL_MS = 25;

/**
 * Sends `signal` to every process of group `pgid`. False when the group is
 * gone (ESRCH), which is fine: there is nothing left to stop. Other errors
 * (EPERM: the group belongs to another user) are thrown.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}

/** True while some process of group `pgid` exists (zombies not yet reaped included). */
export function groupExists(pgid: number): boolean {
  return signalGroup(pgid, 0);
}

/** True while process `pid` exists (EPERM: it exists but is not ours). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * SIGTERM to the whole group, then SIGKILL to it once `graceMs` passed with
 * any member left. Resolves when nothing of the group can run any more:
 * either it emptied within the grace period, or SIGKILL (which cannot be
 * caught or ignored) was sent. The group is polled, since its members are
 * not our children and send no exit events.
 */
export async function terminateGroup(pgid: number, graceMs: number): Promise<GroupEnd> {
  if (!signalGroup(pgid, "SIGTERM")) return "already-gone";
  const deadline = performance.now() + graceMs;
  while (performance.now() < deadline) {
    await sleep(Math.min(POLL_MS, Math.max(1, deadline - performance.now())));
    if (!groupExists(pgid)) return "terminated";
  }
  return signalGroup(pgid, "SIGKILL") ? "killed" : "terminated";
}
