import type { ChildProcess } from "node:child_process";
import { isProcessRunning, signalProcess, stopProcess } from "@errand/channel-sdk/protocol";

/**
 * How long a plugin gets between SIGTERM and SIGKILL: go-plugin's kill
 * window. An SDK plugin removes its socket folder on SIGTERM, which SIGKILL
 * would never let it do.
 */
export const KILL_GRACE_MS = 2000;

interface Live {
  child: ChildProcess;
  exited: Promise<unknown>;
  stopping?: Promise<void>;
}

const live = new Set<Live>();
let stoppingAll = false;

// A plugin leads its own process group (spawned detached), so wrappers' children go too.
const GROUP = { group: true };

function stop(entry: Live, graceMs: number): Promise<void> {
  entry.stopping ??= stopProcess(entry.child, entry.exited, graceMs, GROUP)
    .then(() => entry.exited)
    .then(() => undefined);
  return entry.stopping;
}

/** Records a plugin process so that {@link stopAllPlugins} can end it; returns its stop function. */
export function trackPlugin(child: ChildProcess, exited: Promise<unknown>): (graceMs?: number) => Promise<void> {
  const entry: Live = { child, exited };
  live.add(entry);
  child.once("exit", () => {
    live.delete(entry);
    // Whatever the plugin started must not outlive it. Right at its exit its
    // pid cannot have been reused yet, so the group is still its own.
    signalProcess(child, "SIGKILL", GROUP);
  });
  void exited.then(() => live.delete(entry));
  // A check that starts a plugin while the run is being stopped gets it stopped at once.
  if (stoppingAll) void stop(entry, KILL_GRACE_MS);
  return (graceMs = KILL_GRACE_MS) => stop(entry, graceMs);
}

/** How many plugin processes are still running. */
export function livePluginCount(): number {
  return live.size;
}

/** Stops every plugin process (SIGTERM, a grace, SIGKILL), including any started meanwhile. */
export async function stopAllPlugins(graceMs = KILL_GRACE_MS): Promise<void> {
  stoppingAll = true;
  while (live.size > 0) await Promise.all([...live].map((entry) => stop(entry, graceMs)));
}

/** SIGKILLs every plugin's group at once: for a second Ctrl-C, when waiting is not wanted. */
export function killAllPluginsNow(): void {
  for (const entry of live) if (isProcessRunning(entry.child)) signalProcess(entry.child, "SIGKILL", GROUP);
}

/** True once {@link stopAllPlugins} was called: results after that are not the plugin's doing. */
export function isStoppingAll(): boolean {
  return stoppingAll;
}
