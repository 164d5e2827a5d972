import type { ClientConfig } from "pg";
import pg from "pg";

/** How long opening a connection (or waiting for a free one of the pool) may take, ms. */
const CONNECT_TIMEOUT_MS = 10_000;
/** The longest any one statement of the store may run, ms: nothing it does takes a second. */
const STATEMENT_TIMEOUT_MS = 30_000;
/** A transaction left open this long by a frozen process is ended by the server, freeing its locks, ms. */
const IDLE_IN_TRANSACTION_MS = 60_000;

/** BIGINT columns (times in milliseconds, counts) come back as numbers: every value the store keeps is a safe integer. */
const types = new pg.TypeOverrides();
types.setTypeParser(pg.types.builtins.INT8, (text: string) => Number(text));

/**
 * The settings of every connection of a store, the pool's and the
 * leader's: timeouts the server enforces per session (so nothing needs
 * setting on the server), TCP keepalives, and `errand` as the session's
 * name unless the URL gives one.
 */
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
