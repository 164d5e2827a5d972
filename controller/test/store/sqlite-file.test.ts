import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LogFields, Logger } from "@errand/channel-sdk";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { StoreError } from "../../src/errors.js";
import { createSqliteStore } from "../../src/store/index.js";
import { SCHEMA_VERSION } from "../../src/store/sqlite/migrations.js";
import { openDatabase, PAGE_CACHE_KIB } from "../../src/store/sqlite/open-database.js";
import { toStoreError } from "../../src/store/sqlite/sqlite-error.js";
import { sleep, ticket } from "./conformance/support.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "errand-sqlite-"));
  dirs.push(dir);
  return dir;
}

/** Polls `condition` until it holds; fails after a generous 10 s, which a working store never needs. */
async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 10_000) throw new Error(`still waiting for ${what}`);
    await sleep(10);
  }
}

/** What `createSqliteStore` rejected with. */
async function openError(path: string): Promise<StoreError> {
  const error = await createSqliteStore({ path }).then(
    (store) => store.close().then(() => undefined),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreError);
  return error as StoreError;
}

function migrations(path: string): unknown[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare("SELECT version, name, applied_at FROM schema_migrations ORDER BY version").all();
  } finally {
    db.close();
  }
}

describe("SQLite store file", () => {
  it("creates its folder and a file in WAL mode", async () => {
    const path = join(tempDir(), "nested", "deeper", "errand.db");
    const store = await createSqliteStore({ path });
    expect(store).toMatchObject({ kind: "sqlite", location: path });
    await store.acceptTickets([ticket("w")], "default");
    expect(existsSync(`${path}-wal`)).toBe(true);
    const db = new Database(path, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
    await store.close();
  });

  it("syncs at NORMAL (WAL: a commit is durable against a crash of the process, fsync at checkpoints)", () => {
    const db = openDatabase(join(tempDir(), "errand.db"), 1000, 1000);
    try {
      // 1 = NORMAL; better-sqlite3's default is 2 (FULL), an fsync per commit.
      expect(db.pragma("synchronous", { simple: true })).toBe(1);
    } finally {
      db.close();
    }
  });

  it("bounds each connection's page cache to PAGE_CACHE_KIB, not better-sqlite3's 16 MB", () => {
    const db = openDatabase(join(tempDir(), "errand.db"), 1000, 1000);
    try {
      // Negative: KiB rather than pages. better-sqlite3's build default is -16000.
      expect(db.pragma("cache_size", { simple: true })).toBe(-PAGE_CACHE_KIB);
      expect(PAGE_CACHE_KIB).toBeLessThan(16000);
    } finally {
      db.close();
    }
  });

  it("migrates an empty file, logs it once, and opens it again without applying anything", async () => {
    const path = join(tempDir(), "errand.db");
    writeFileSync(path, "");
    const records: Array<[string, LogFields | undefined]> = [];
    const logger: Logger = {
      debug: () => {},
      info: (message, fields) => void records.push([message, fields]),
      warn: () => {},
      error: () => {},
      child: () => logger,
    };
    await (await createSqliteStore({ path, logger })).close();
    const first = migrations(path);
    expect(first.map((m) => (m as { version: number }).version)).toEqual(
      Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1),
    );
    await (await createSqliteStore({ path, logger })).close();
    expect(migrations(path)).toEqual(first);
    expect(records).toEqual([["store schema migrated", { path, from: 0, to: SCHEMA_VERSION }]]);
  });

  it("refuses a database written by a newer errand and leaves it as it was", async () => {
    const path = join(tempDir(), "errand.db");
    await (await createSqliteStore({ path })).close();
    const db = new Database(path);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'from the future', 0)").run(
      SCHEMA_VERSION + 1,
    );
    db.close();
    const error = await openError(path);
    expect(error.message).toContain(path);
    expect(error.message).toContain(`schema version ${SCHEMA_VERSION + 1}`);
    expect(error.hint).toMatch(/newer|store\.path/);
    expect(migrations(path)).toHaveLength(SCHEMA_VERSION + 1);
  });

  it("names the file and the fix for a file that is not a database", async () => {
    const path = join(tempDir(), "notes.txt");
    writeFileSync(path, "These are my notes, not a database. ".repeat(40));
    const error = await openError(path);
    expect(error.code).toBe("ERR_STORE");
    expect(error.message).toContain(path);
    expect(error.message).toContain("not an errand database");
    expect(error.hint).toContain("store.path");
  });

  it("names the path and the fix when its folder cannot be made", async () => {
    const blocker = join(tempDir(), "a-file");
    writeFileSync(blocker, "x");
    const error = await openError(join(blocker, "errand.db"));
    expect(error.message).toContain(blocker);
    expect(error.hint).toMatch(/folder/);
  });

  it("names the path and the fix when it is a folder", async () => {
    const dir = tempDir();
    const error = await openError(dir);
    expect(error.message).toContain(dir);
    expect(error.hint).toContain("store.path");
  });

  it("waits for another connection's write lock, then fails naming the lock and how to find its holder", async () => {
    const path = join(tempDir(), "errand.db");
    const store = await createSqliteStore({ path, busyTimeoutMs: 50 });
    const holder = new Database(path);
    holder.exec("BEGIN IMMEDIATE");
    const error = await store.acceptTickets([ticket("l")], "default").catch((e: unknown) => e as StoreError);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).message).toMatch(/locked.*50 ms/);
    expect((error as StoreError).hint).toContain(`fuser ${path}`);
    holder.exec("ROLLBACK");
    holder.close();
    expect((await store.acceptTickets([ticket("l")], "default"))[0]?.kind).toBe("queued");
    await store.close();
  });
});

describe("SQLite checkpoints", () => {
  const fill = async (path: string, checkpointIntervalMs: number) => {
    const store = await createSqliteStore({ path, checkpointIntervalMs });
    await store.acceptTickets(
      Array.from({ length: 200 }, (_, i) => ticket(`c${i}`)),
      "default",
    );
    return store;
  };

  it("copies the WAL into the database file from a background thread", async () => {
    const path = join(tempDir(), "errand.db");
    const store = await fill(path, 10);
    const before = statSync(path).size;
    await waitFor(() => statSync(path).size > before, "the database file to grow by a checkpoint");
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
    await store.close();
    // Removed by the last connection to close: the thread's was closed first.
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it("leaves checkpoints to SQLite with an interval of 0", async () => {
    const path = join(tempDir(), "errand.db");
    const store = await fill(path, 0);
    const size = statSync(path).size;
    await sleep(100);
    expect(statSync(path).size).toBe(size);
    await store.close();
  });
});

describe("SQLite errors", () => {
  it.each([
    ["SQLITE_FULL", /disk is full/, /free space/],
    ["SQLITE_READONLY_DBMOVED", /read-only/, /write access/],
    ["SQLITE_CANTOPEN", /cannot be opened/, /writable/],
    ["SQLITE_CORRUPT", /not an errand database/, /backup/],
    ["SQLITE_IOERR_WRITE", /I\/O error/, /disk/],
    ["SQLITE_BUSY", /locked/, /fuser/],
  ])("explains %s with the file and a fix", (code, what, fix) => {
    const error = toStoreError(
      new Database.SqliteError("low-level message", code),
      "/data/errand.db",
      "storing tickets",
      5000,
    );
    expect(error).toBeInstanceOf(StoreError);
    expect(error.message).toMatch(what);
    expect(error.message).toContain("/data/errand.db");
    expect(error.message).toContain("storing tickets");
    expect(error.hint).toMatch(fix);
    expect(error.cause).toBeInstanceOf(Database.SqliteError);
  });

  it("passes the controller's own errors through", () => {
    const own = new StoreError("mine", { hint: "h" });
    expect(toStoreError(own, "/x", "y", 1)).toBe(own);
  });
});

describe("SQLite store input", () => {
  it("refuses a busy timeout that is not a count of milliseconds", async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    await expect(createSqliteStore({ path: join(dir, "e.db"), busyTimeoutMs: -1 })).rejects.toThrow(/busy timeout/);
  });
});
