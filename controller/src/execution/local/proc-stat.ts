import { readdirSync, readFileSync } from "node:fs";

/**
 * When process `pid` started, in clock ticks since boot: field 22 of
 * /proc/<pid>/stat (Linux). A pid can be reused by an unrelated process;
 * pid plus start time (plus the boot id) cannot. Undefined when the
 * process does not exist or /proc is not there (not Linux).
 */
export function processStartTime(pid: number): number | undefined {
  const stat = readProcStat(pid);
  if (stat === undefined) return undefined;
  // Field 22 counts from 1 and field 2 is "(comm)", which may contain spaces
  // and parentheses: count from the last ")" (field 3 is the first after it).
  const value = Number(stat.fields[22 - 3]);
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * True when the process has exited but was not reaped yet (state Z). An
 * engine whose controller died is reparented to init, which may reap it
 * late (or never, in some container inits); until then its pid and start
 * time still read as alive.
 */
export function isZombie(pid: number): boolean {
  return readProcStat(pid)?.fields[0] === "Z";
}

let cachedBootId: { value: string | undefined } | undefined;

/** Identifies this boot of the machine (Linux); undefined elsewhere. Start times only compare within one boot. */
export function bootId(): string | undefined {
  if (cachedBootId === undefined) {
    let value: string | undefined;
    try {
      value = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
    } catch {
      value = undefined;
    }
    // It cannot change while this process runs.
    cachedBootId = { value };
  }
  return cachedBootId.value;
}

function readProcStat(pid: number): { fields: string[] } | undefined {
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  return {
    fields: text
      .slice(close + 1)
      .trim()
      .split(" "),
  };
}

/** A process of a group that can still run. */
export interface GroupMember {
  pid: number;
  startTime: number;
}

/**
 * The members of group `pgid` that can still run: zombies (which wait for a
 * parent to reap them, and some container init processes do that late or
 * never) are left out. Undefined without /proc.
 */
export function liveGroupMembers(pgid: number): GroupMember[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const group = String(pgid);
  const members: GroupMember[] = [];
  for (const entry of entries) {
    const code = entry.charCodeAt(0);
    if (code < 48 || code > 57) continue;
    const fields = readProcStat(Number(entry))?.fields;
    // After "(comm)": state, ppid, pgrp, ..., start time (field 22).
    if (fields === undefined || fields[2] !== group || fields[0] === "Z" || fields[0] === "X") continue;
    members.push({ pid: Number(entry), startTime: Number(fields[22 - 3]) });
  }
  return members;
}
