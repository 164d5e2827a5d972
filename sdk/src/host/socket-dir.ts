import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Prefix of the folder a host makes for one plugin's socket directory. */
export const HOST_SOCKET_DIR_PREFIX = "errand-host-";

/**
 * The folder a host lends one plugin for its socket directory, as
 * PLUGIN_UNIX_SOCKET_DIR. An SDK plugin removes its own socket directory on
 * every way out that runs exit handlers; one the host had to SIGKILL (or that
 * crashed) cannot, so the host, which owns this folder, removes it with
 * whatever was left inside once the plugin has exited. A host that is itself
 * killed cannot, so it also names the folder in ERRAND_PLUGIN_SOCKET_DIR_LENT
 * and an SDK plugin, which exits on its own once its host is gone, removes it.
 *
 * Undefined when the environment already names a directory (the operator's
 * choice, never removed) or the transport is TCP.
 */
export function lendSocketDir(transport: "unix" | "tcp", env: Record<string, string | undefined>): string | undefined {
  if (transport !== "unix" || env.PLUGIN_UNIX_SOCKET_DIR) return undefined;
  return mkdtempSync(join(tmpdir(), HOST_SOCKET_DIR_PREFIX));
}

/** Removes a lent folder and its contents; synchronous, so an 'exit' listener can call it. Never throws. */
export function removeSocketDir(dir: string | undefined): void {
  if (dir === undefined) return;
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // Best effort: a folder in the temp directory that cannot be removed now harms nothing.
  }
}
