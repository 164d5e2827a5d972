import type { Logger } from "@errand/channel-sdk";
import type { Pool } from "pg";
import pg from "pg";
import { connectionConfig } from "./connection-config.js";

/**
 * The pool of a store. A connection that fails while idle (the server
 * restarted, an administrator ended it) is dropped and logged; the next
 * call opens a new one. An idle pool does not keep the process alive.
 */
export function createPool(connectionString: string, size: number, logger: Logger | undefined, location: string): Pool {
  const pool = new pg.Pool({
    ...connectionConfig(connectionString),
    max: size,
    idleTimeoutMillis: 30_000,
    allowExitOnIdle: true,
  });
  pool.on("error", (error) => {
    logger?.warn("a connection of the PostgreSQL store failed while idle; the next call opens a new one", {
      location,
      error: error.message,
    });
  });
  return pool;
}
