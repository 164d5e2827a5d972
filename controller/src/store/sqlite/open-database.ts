import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { StoreError } from "../../errors.js";
import { toStoreError } from "./sqlite-error.js";

/** How long a statement waits for another process's write lock by default, ms. */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * The page cache of each connection, KiB. better-sqlite3 builds SQLite with
 * 16 MB (SQLite's own default is 2 MB); a controller's hot pages are the
 * tails of a few tables and indexes, and with 16 MB the cache grew with the
 * file until it held all of it: 14 MB of the controller's peak RSS after
 * 10,000 runs (docs/benchmarks.md). Pages outside it are read from the OS
 * page cache.
 */
export const PAGE_CACHE_KIB = 4096;

/**
 * Opens (creating it and its folder if needed) the SQLite file at `path`
 * with the settings every errand process uses on it: WAL, so readers
 * never wait for the writer; `synchronous=NORMAL`, which in WAL mode keeps
 * every committed transaction through a process crash (kill -9) and may
 * lose the last ones only on power loss or an OS crash; a busy timeout,
 * because the controller and `errand runs cancel|retry` share the file;
 * foreign keys; and a page cache of {@link PAGE_CACHE_KIB}.
 * `autoCheckpointPages` is SQLite's own checkpoint threshold on this
 * connection (its default is 1000).
 */
export function openDatabase(path: string, busyTimeoutMs: number, autoCheckpointPages: number): Database {
  const file = resolve(path);
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (error) {
    throw toStoreError(error, file, `creating the folder ${dirname(file)}`, busyTimeoutMs);
  }
  let db: Database | undefined;
  try {
    db = new BetterSqlite3(file);
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    const mode = db.pragma("journal_mode = WAL", { simple: true });
    if (mode !== "wal") {
      throw new StoreError(`store ${file}: SQLite could not switch the file to WAL mode (it stays in ${String(mode)} mode)`, {
        hint: "keep the file on a local filesystem that supports shared memory (not a network share), or set store.path elsewhere",
      });
    }
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    db.pragma(`cache_size = ${-PAGE_CACHE_KIB}`);
    db.pragma(`wal_autocheckpoint = ${autoCheckpointPages}`);
    // A WAL that grew during a burst is cut back to this size after the next checkpoint.
    db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
    return db;
  } catch (error) {
    db?.close();
    throw toStoreError(error, file, "opening", busyTimeoutMs);
  }
}
