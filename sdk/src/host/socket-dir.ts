import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Prefix of the folder a host makes for one plugin's socket directory. */
export const HOST_SOCKET_DIR_PREFIX = "errand-host-";

/**
 * Lends one plugin a folder for its socket directory: makes it in the temp
 * directory and names it in the plugin's environment `env` (changed in
 * place) as PLUGIN_UNIX_SOCKET_DIR and ERRAND_PLUGIN_SOCKET_DIR_LENT. Remove
 * it with {@link removeSocketDir} once the plugin has exited.
 *
 * An SDK plugin removes its own socket directory on every way out that runs
 * exit handlers; one the host had to SIGKILL (or that crashed) cannot, so
 * the host, which owns this folder, removes it with whatever was left
 * inside. A host that is itself killed cannot, so the folder is also named in
 * ERRAND_PLUGIN_SOCKET_DIR_LENT and an SDK plugin, which exits on its own
 * once its host is gone, removes it.
 *
 * Returns undefined when the environment already names a directory (the
 * operator's choice, never removed; an inherited ERRAND_PLUGIN_SOCKET_DIR_LENT
 * is cleared so that no plugin takes it for lent) or the transport is TCP.
 */
export function lendSocketDir(transport: "unix" | "tcp", env: Record<string, string | undefined>): string | undefined {
  env.ERRAND_PLUGIN_SOCKET_DIR_LENT = undefined;
  if (transport !== "unix" || env.PLUGIN_UNIX_SOCKET_DIR) return undefined;
  const dir = mkdtempSync(join(tmpdir(), HOST_SOCKET_DIR_PREFIX));
  env.PLUGIN_UNIX_SOCKET_DIR = dir;
  env.ERRAND_PLUGIN_SOCKET_DIR_LENT = dir;
  return dir;
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
