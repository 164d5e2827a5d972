import { ControllerError, StoreError } from "../../errors.js";

/** What went wrong, by the SQLite result code's family, and what the user can do. */
function explain(code: string, path: string, busyMs: number): { what: string; hint: string } | undefined {
  const family = code.replace(/^(SQLITE_[A-Z]+).*$/, "$1");
  switch (family) {
    case "SQLITE_BUSY":
    case "SQLITE_LOCKED":
      return {
        what: `the database stayed locked by another process for more than ${busyMs} ms`,
        hint: `find the process holding ${path} open in a long write (\`fuser ${path}\`), and keep the file on a local disk: network filesystems break SQLite's locking`,
      };
    case "SQLITE_FULL":
      return {
        what: "the disk is full",
        hint: `free space on the filesystem of ${path} (\`df -h ${path}\`), then restart`,
      };
    case "SQLITE_READONLY":
    case "SQLITE_PERM":
    case "SQLITE_AUTH":
      return {
        what: "the file or its folder is read-only for this process",
        hint: `give the user running errand write access to ${path}, its -wal and -shm files and their folder, or set store.path to a writable place`,
      };
    case "SQLITE_CANTOPEN":
      return {
        what: "the file cannot be opened or created",
        hint: `check that the folder of ${path} exists and is writable by this user, or set store.path to a writable place`,
      };
    case "SQLITE_NOTADB":
    case "SQLITE_CORRUPT":
      return {
        what: "the file is not an errand database (or it is damaged)",
        hint: `set store.path to another file; if ${path} was errand's, restore it from a backup (\`sqlite3 ${path} ".recover"\` may save what is left)`,
      };
    case "SQLITE_IOERR":
      return {
        what: "the operating system reported an I/O error",
        hint: `check the disk holding ${path} (dmesg, free space, mount state)`,
      };
    default:
      return undefined;
  }
}

const FS_HINTS: Record<string, string> = {
  EACCES: "give the user running errand write access to that folder, or set store.path to a writable place",
  EPERM: "give the user running errand write access to that folder, or set store.path to a writable place",
  EROFS: "the filesystem is read-only: set store.path to a writable place",
  ENOTDIR: "a part of the path is a file, not a folder: set store.path to a path inside a folder",
  EEXIST: "a part of the path is a file, not a folder: set store.path to a path inside a folder",
  ENOSPC: "the disk is full: free space, then restart",
};

/**
 * Turns whatever better-sqlite3 or the filesystem threw during `action` on
 * the database at `path` into a {@link StoreError} naming the file and the
 * fix. The controller's own errors (NotFound, Conflict, Store) pass as they are.
 */
export function toStoreError(error: unknown, path: string, action: string, busyMs: number): ControllerError {
  if (error instanceof ControllerError) return error;
  const code = typeof (error as { code?: unknown })?.code === "string" ? (error as { code: string }).code : "";
  const message = error instanceof Error ? error.message : String(error);
  const sqlite = explain(code, path, busyMs);
  if (sqlite)
    return new StoreError(`store ${path}: ${action} failed: ${sqlite.what} (${code}: ${message})`, {
      cause: error,
      hint: sqlite.hint,
    });
  const fsHint = FS_HINTS[code];
  if (fsHint) return new StoreError(`store ${path}: ${action} failed: ${message}`, { cause: error, hint: fsHint });
  return new StoreError(`store ${path}: ${action} failed: ${message}`, {
    cause: error,
    hint: "this is unexpected: report it with the message above",
  });
}
