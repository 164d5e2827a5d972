import type { ChildProcess } from "node:child_process";

/**
 * Time a plugin gets after SIGTERM on a failed start before SIGKILL. An SDK
 * plugin needs about 800 ms (500 ms drain, 300 ms close) to stop and remove
 * its socket directory; SIGKILL straight away would leave the directory behind.
 */
export const FAILED_START_GRACE_MS = 1500;

/** Options of {@link stopProcess} and {@link signalProcess}. */
export interface StopProcessOptions {
  /**
   * The child leads its own process group (spawned with `detached: true`):
   * signal the whole group, so what a wrapper script started goes too.
   */
  group?: boolean;
}

/** Resolves true when `exited` settles within `ms`, else false; leaves no timer behind. */
export function settlesWithin(exited: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(resolve, ms, false);
  });
  return Promise.race([exited.then(() => true), expired]).finally(() => clearTimeout(timer));
}

/** Sends `signal` to the child, or to its whole process group; a process already gone is no error. */
export function signalProcess(child: ChildProcess, signal: NodeJS.Signals, options: StopProcessOptions = {}): void {
  if (child.pid === undefined) return;
  if (!options.group) {
    child.kill(signal);
    return;
  }
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: nothing left in the group.
  }
}

/** True while the child runs: started, and neither exited nor killed by a signal. */
export function isProcessRunning(child: ChildProcess): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

/**
 * Stops a plugin that must go: SIGTERM (so it can clean up), then SIGKILL
 * after `graceMs`. Resolves once it has exited and its stderr has drained
 * (briefly), so an error built afterwards shows the plugin's last words.
 */
export async function stopProcess(
  child: ChildProcess,
  exited: Promise<unknown>,
  graceMs = FAILED_START_GRACE_MS,
  options: StopProcessOptions = {},
): Promise<void> {
  if (isProcessRunning(child)) {
    signalProcess(child, "SIGTERM", options);
    if (!(await settlesWithin(exited, graceMs))) {
      // With a group, the leader may be gone while its children linger.
      if (isProcessRunning(child) || options.group) signalProcess(child, "SIGKILL", options);
      await exited;
    }
  }
  const stderr = child.stderr;
  if (stderr && !stderr.readableEnded && !stderr.destroyed) {
    await settlesWithin(new Promise((resolve) => stderr.once("close", resolve)), 100);
  }
}
