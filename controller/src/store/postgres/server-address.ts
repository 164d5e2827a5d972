import pg from "pg";
import { StoreError } from "../../errors.js";

/** Where a store connects, as logs and errors show it: never the password. */
export interface ServerAddress {
  host: string;
  port: number;
  database: string;
  user: string;
  /** `host:port/database`. */
  location: string;
}

/** Hides the password of anything that looks like a URL with credentials. */
export function scrubCredentials(text: string): string {
  return text.replace(/(\/\/[^/:@\s]*):[^@\s]*@/g, "$1:***@");
}

/**
 * Reads the server, database and user out of a connection string the way
 * node-postgres will (its defaults and PG* environment variables included),
 * without connecting. A string it cannot read is refused with an example of
 * one it can; the message never repeats the string, which holds a password.
 */
export function readServerAddress(connectionString: string): ServerAddress {
  let parsed: pg.Client;
  try {
    parsed = new pg.Client({ connectionString });
  } catch (error) {
    throw new StoreError(
      `the PostgreSQL connection URL of the store cannot be read: ${scrubCredentials((error as Error).message)}`,
      {
        cause: error,
        hint: "write it as postgres://USER:PASSWORD@HOST:5432/DATABASE (percent-encode special characters in the password) in the secret named by store.url_secret",
      },
    );
  }
  const host = parsed.host || "localhost";
  const port = parsed.port || 5432;
  const user = parsed.user ?? "";
  const database = parsed.database || user;
  return { host, port, database, user, location: `${host}:${port}/${database}` };
}
