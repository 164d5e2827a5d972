import { randomInt } from "node:crypto";
import { chmod, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Server, ServerCredentials } from "@grpc/grpc-js";
import type { PluginEnvironment } from "./plugin-env.js";

/** Where the server listens, in the handshake line's terms. */
export interface BoundAddress {
  network: "unix" | "tcp";
  address: string;
  /** A directory to remove on exit (the private socket directory). */
  cleanupDir?: string;
}

function bind(server: Server, target: string, credentials: ServerCredentials): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(target, credentials, (error, port) => (error ? reject(error) : resolve(port)));
  });
}

/**
 * Binds the server where the host asked: a Unix socket inside a fresh 0700
 * directory (only our user can reach it), or a TCP port on 127.0.0.1 within
 * [minPort, maxPort], starting at a random port so parallel plugins rarely collide.
 */
export async function bindServer(
  server: Server,
  env: PluginEnvironment,
  credentials: ServerCredentials,
): Promise<BoundAddress> {
  if (env.transport === "unix") {
    const dir = await mkdtemp(join(env.socketDir ?? tmpdir(), "errand-plugin-"));
    await chmod(dir, 0o700);
    const path = join(dir, "plugin.sock");
    await bind(server, `unix:${path}`, credentials);
    return { network: "unix", address: path, cleanupDir: dir };
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
