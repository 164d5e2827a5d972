import type { ChildProcess } from "node:child_process";

/**
 * Time a plugin gets after SIGTERM on a failed start before SIGKILL. An SDK
 * plugin needs about 800 ms (500 ms drain, 300 ms close) to stop and remove
 * its socket directory; SIGKILL straight away would leave the directory behind.
 */
export const FAILED_START_GRACE_MS = 1500;

/** Resolves true when `exited` settles within `ms`, else false; leaves no timer behind. */
export function settlesWithin(exited: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(resolve, ms, false);
  });
  return Promise.race([exited.then(() => true), expired]).finally(() => clearTimeout(timer));
}

/**
 * Stops a plugin that must go: SIGTERM (so it can clean up), then SIGKILL
 * after `graceMs`. Resolves once it has exited and its stderr has drained
 * (briefly), so an error built afterwards shows the plugin's last words.
 */
export async function stopProcess(child: ChildProcess, exited: Promise<unknown>, graceMs = FAILED_START_GRACE_MS): Promise<void> {
  if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
    child.kill("SIGTERM");
    if (!(await settlesWithin(exited, graceMs))) {
      child.kill("SIGKILL");
      await exited;
    }
  }
  const stderr = child.stderr;
  if (stderr && !stderr.readableEnded && !stderr.destroyed) {
    await settlesWithin(new Promise((resolve) => stderr.once("close", resolve)), 100);
  }
}
