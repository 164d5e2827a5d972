import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";
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
    makePrivateFolder(dirname(file));
  } catch (error) {
    throw toStoreError(error, file, `creating the folder ${dirname(file)}`, busyTimeoutMs);
  }
  let db: Database | undefined;
  try {
    makePrivateFiles(file);
    db = new BetterSqlite3(file);
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    const mode = db.pragma("journal_mode = WAL", { simple: true });
    if (mode !== "wal") {
      throw new StoreError(
        `store ${file}: SQLite could not switch the file to WAL mode (it stays in ${String(mode)} mode)`,
        {
          hint: "keep the file on a local filesystem that supports shared memory (not a network share), or set store.path elsewhere",
        },
      );
    }
    // Made by SQLite with the file's mode, which was private already; set again for files left by an older errand.
    makePrivateFiles(file);
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

/** Owner-only modes of the store: it holds every ticket's text. Set with chmod, whatever the umask. */
export const STORE_FILE_MODE = 0o600;
export const STORE_FOLDER_MODE = 0o700;

/** Creates the store's folder owner-only; a folder that exists already keeps its mode (it may be a project folder). */
function makePrivateFolder(folder: string): void {
  const created = mkdirSync(folder, { recursive: true, mode: STORE_FOLDER_MODE });
  if (created !== undefined) chmodSync(folder, STORE_FOLDER_MODE);
}

/**
 * Makes the database file owner-only before SQLite opens it (SQLite gives
 * its -wal and -shm files the database file's mode), creating it empty when
 * missing, and the -wal and -shm files that exist. A file of another user
 * (EPERM) is left as it is: that user's errand set its mode.
 */
function makePrivateFiles(file: string): void {
  try {
    closeSync(openSync(file, "wx", STORE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      const stat = statSync(path);
      // Not a file (a folder named like the store): SQLite's open says what is wrong.
      if (stat.isFile() && (stat.mode & 0o777) !== STORE_FILE_MODE) chmodSync(path, STORE_FILE_MODE);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "EPERM") throw error;
    }
  }
}
