import { randomInt } from "node:crypto";
import { rmdirSync, rmSync } from "node:fs";
import { chmod, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Server, ServerCredentials } from "@grpc/grpc-js";
import { type PluginEnvironment, PluginEnvironmentError } from "./plugin-env.js";

/** Where the server listens, in the handshake line's terms. */
export interface BoundAddress {
  network: "unix" | "tcp";
  address: string;
  /** The private socket directory; removed when the process exits, however it exits. */
  cleanupDir?: string;
}

/**
 * Longest Unix socket path the kernel takes, in bytes: `sun_path` is 108
 * bytes on Linux and 104 on macOS and the BSDs, the terminating NUL
 * included. A longer path is not refused by grpc-js but silently cut, so
 * the socket would land outside its private directory.
 */
export const MAX_SOCKET_PATH_BYTES = process.platform === "linux" ? 107 : 103;

const DIR_PREFIX = "errand-plugin-";
const SOCKET_NAME = "plugin.sock";

function bind(server: Server, target: string, credentials: ServerCredentials): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(target, credentials, (error, port) => (error ? reject(error) : resolve(port)));
  });
}

/** What the parent directory is called in messages: the variable that chose it. */
function nameOf(env: PluginEnvironment, parent: string): string {
  return env.socketDir !== undefined
    ? `PLUGIN_UNIX_SOCKET_DIR=${JSON.stringify(parent)}`
    : `the system temp directory ${JSON.stringify(parent)} (PLUGIN_UNIX_SOCKET_DIR is unset)`;
}

/** Refuses, before anything is created, a parent directory whose socket path would be too long. */
function checkSocketPathLength(env: PluginEnvironment, parent: string): void {
  const example = join(parent, `${DIR_PREFIX}XXXXXX`, SOCKET_NAME);
  const bytes = Buffer.byteLength(example);
  if (bytes <= MAX_SOCKET_PATH_BYTES) return;
  const room = MAX_SOCKET_PATH_BYTES - (bytes - Buffer.byteLength(parent));
  throw new PluginEnvironmentError(
    `${nameOf(env, parent)} is too long for a Unix socket: the socket path would be ${bytes} bytes (${example}), `
      + `and ${process.platform} allows at most ${MAX_SOCKET_PATH_BYTES}; set PLUGIN_UNIX_SOCKET_DIR to a shorter directory `
      + `(at most ${Math.max(0, room)} bytes, such as /tmp), or use ERRAND_PLUGIN_TRANSPORT=tcp`,
  );
}

async function makePrivateDir(env: PluginEnvironment, parent: string): Promise<string> {
  try {
    return await mkdtemp(join(parent, DIR_PREFIX));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "does not exist"
        : code === "ENOTDIR"
          ? "is not a directory"
          : code === "EACCES"
            ? "is not writable by this user"
            : `cannot hold the socket directory (${String(error)})`;
    throw new PluginEnvironmentError(
      `${nameOf(env, parent)} ${why}; point PLUGIN_UNIX_SOCKET_DIR at an existing directory this user can write to, or unset it`,
    );
  }
}

/**
 * Binds the server where the host asked: a Unix socket inside a fresh 0700
 * directory (only our user can reach it), or a TCP port on 127.0.0.1 within
 * [minPort, maxPort], starting at a random port so parallel plugins rarely collide.
 *
 * The socket directory is removed by a synchronous `exit` hook, so it goes
 * on every way out of the process that runs exit handlers (Shutdown, SIGTERM,
 * `process.exit` anywhere, an uncaught exception), and at once when the bind
 * fails; with it goes the folder the host lent for it (ERRAND_PLUGIN_SOCKET_DIR_LENT),
 * once empty. Throws PluginEnvironmentError when the directory named by
 * PLUGIN_UNIX_SOCKET_DIR cannot be used, before creating anything.
 */
export async function bindServer(
  server: Server,
  env: PluginEnvironment,
  credentials: ServerCredentials,
): Promise<BoundAddress> {
  if (env.transport === "unix") {
    const parent = env.socketDir ?? tmpdir();
    checkSocketPathLength(env, parent);
    const dir = await makePrivateDir(env, parent);
    const remove = () => {
      try {
        rmSync(dir, { recursive: true, force: true });
        // Not recursive: the lent folder goes only once nothing else is in it.
        if (env.socketDirLent) rmdirSync(parent);
      } catch {
        // Exiting anyway; a directory we cannot remove is all that is left
        // (and a lent folder its host has removed already is no loss).
      }
    };
    process.once("exit", remove);
    try {
      await chmod(dir, 0o700);
      const path = join(dir, SOCKET_NAME);
      await bind(server, `unix:${path}`, credentials);
      return { network: "unix", address: path, cleanupDir: dir };
    } catch (error) {
      remove();
      process.removeListener("exit", remove);
      throw error;
    }
  }
  const span = env.maxPort - env.minPort + 1;
  const start = randomInt(0, span);
  let lastError: unknown;
  // Bounded: a busy range fails after trying each port at most once (or 200 ports).
  for (let i = 0; i < Math.min(span, 200); i++) {
    const port = env.minPort + ((start + i) % span);
    try {
      await bind(server, `127.0.0.1:${port}`, credentials);
      return { network: "tcp", address: `127.0.0.1:${port}` };
    } catch (error) {
      lastError = error;
    }
  }
  throw new Error(
    `no free TCP port on 127.0.0.1 between PLUGIN_MIN_PORT=${env.minPort} and PLUGIN_MAX_PORT=${env.maxPort}: ${String(lastError)}`,
  );
}
