import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cliBin } from "./cli.js";

/** A CLI started as a real process, its output collected as it comes. */
export interface RunningCli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves when the process has exited, with when. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** Starts a built bin with piped stdout/stderr; `detached` gives it its own process group, like a shell job. */
export function startCli(
  name: "channel" | "create-channel",
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; detached?: boolean } = {},
): RunningCli {
  const child = spawn(process.execPath, [cliBin(name), ...args], {
    cwd: options.cwd,
    env: { ...process.env, FORCE_COLOR: "0", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: options.detached,
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Polls `condition` every 25 ms until it holds; rejects after `ms`. */
export async function waitFor(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** True while a process with this pid runs; a zombie (dead, not yet reaped by whoever adopted it) does not count. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/<pid>/stat: "pid (name) S ..."; the state follows the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

/** The pids a fixture appended to `file`, one a line. */
export function pidsIn(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8").split("\n").filter(Boolean).map(Number);
}

/** Waits until none of `pids` exists any more; resolves with the ones still alive after `ms`. */
export async function survivors(pids: number[], ms = 1500): Promise<number[]> {
  await waitFor(() => pids.every((pid) => !isAlive(pid)), ms, "the processes to be gone").catch(() => undefined);
  return pids.filter(isAlive);
}
