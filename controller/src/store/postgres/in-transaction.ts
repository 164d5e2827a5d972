import type { Pool, PoolClient } from "pg";

/** Deadlock and serialization failures: the transaction is run again this many times in all. */
const ATTEMPTS = 3;
const RETRYABLE = new Set(["40P01", "40001"]);

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
