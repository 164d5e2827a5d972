import { setTimeout as sleep } from "node:timers/promises";
import { liveGroupMembers } from "./proc-stat.js";

/** How {@link terminateGroup} ended. */
export type GroupEnd = "already-gone" | "terminated" | "killed";

const POLL_MS = 25;
/** How long SIGKILLed processes get to disappear before we stop waiting for them. */
const AFTER_KILL_MS = 2000;

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

/**
 * True while some process of group `pgid` can still run. The cheap check
 * first (no such group at all); when the group exists, /proc tells whether
 * only zombies are left in it.
 */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  const members = liveGroupMembers(pgid);
  return members === undefined || members.length > 0;
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
 * any member left. Resolves once the group is gone, or (when something
 * keeps it, such as a zombie nobody reaps) a short while after SIGKILL,
 * which cannot be caught or ignored. The group is polled: its members are
 * not all our children and send no exit events.
 */
export async function terminateGroup(pgid: number, graceMs: number): Promise<GroupEnd> {
  if (!signalGroup(pgid, "SIGTERM")) return "already-gone";
  if (await emptied(pgid, graceMs)) return "terminated";
  if (!signalGroup(pgid, "SIGKILL")) return "terminated";
  await emptied(pgid, AFTER_KILL_MS);
  return "killed";
}

/** Polls until group `pgid` is gone (true) or `withinMs` passed (false). */
async function emptied(pgid: number, withinMs: number): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  while (performance.now() < deadline) {
    await sleep(Math.min(POLL_MS, Math.max(1, deadline - performance.now())));
    if (!groupAlive(pgid)) return true;
  }
  return false;
}
