import type { Logger } from "@errand/channel-sdk";
import pg from "pg";
import type { ClientConfig, Pool, PoolClient } from "pg";

/** How long opening a connection (or waiting for a free one of the pool) may take, ms. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** The longest any one statement of the store may run, ms: nothing it does takes a second. */
const STATEMENT_TIMEOUT_MS = 30_000;
/** A transaction left open this long by a frozen process is ended by the server, freeing its locks, ms. */
const IDLE_IN_TRANSACTION_MS = 60_000;
/** Deadlock and serialization failures: the transaction is run again this many times in all. */
const ATTEMPTS = 3;
const RETRYABLE = new Set(["40P01", "40001"]);

/** BIGINT columns (times in milliseconds, counts) come back as numbers: every value the store keeps is a safe integer. */
const types = new pg.TypeOverrides();
types.setTypeParser(pg.types.builtins.INT8, (text: string) => Number(text));

/** The settings of every connection of a store, the pool's and the leader's. */
export function connectionConfig(connectionString: string): ClientConfig {
  return {
    connectionString,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    fallback_application_name: "errand",
    statement_timeout: STATEMENT_TIMEOUT_MS,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    types,
  };
}

/**
 * The pool of a store. A connection that fails while idle (the server
 * restarted, an administrator ended it) is dropped and logged; the next
 * call opens a new one. An idle pool does not keep the process alive.
 */
export function createPool(connectionString: string, size: number, logger: Logger | undefined, location: string): Pool {
  const pool = new pg.Pool({ ...connectionConfig(connectionString), max: size, idleTimeoutMillis: 30_000, allowExitOnIdle: true });
  pool.on("error", (error) => {
    logger?.warn("a connection of the PostgreSQL store failed while idle; the next call opens a new one", { location, error: error.message });
  });
  return pool;
}

const codeOf = (error: unknown) => String((error as { code?: unknown })?.code ?? "");

/**
 * Runs `body` in one transaction (READ COMMITTED) on one connection of
 * `pool`, and commits. On any error it rolls back and rethrows; a deadlock
 * or serialization failure runs the whole body again, up to 3 times.
 * A connection that broke on the way is destroyed instead of reused.
 */
export async function inTransaction<T>(pool: Pool, body: (client: PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    // A socket error between two statements would otherwise be an unhandled 'error' event.
    let broken: Error | undefined;
    const onError = (error: Error) => (broken = error);
    client.on("error", onError);
    try {
      await client.query("BEGIN");
      const value = await body(client);
      await client.query("COMMIT");
      return value;
    } catch (error) {
      await client.query("ROLLBACK").catch((rollbackError: Error) => (broken ??= rollbackError));
      if (attempt < ATTEMPTS && RETRYABLE.has(codeOf(error))) continue;
      throw error;
    } finally {
      client.off("error", onError);
      client.release(broken ?? false);
    }
  }
}
