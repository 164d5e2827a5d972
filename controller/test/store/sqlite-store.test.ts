import { rmSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { tempDir } from "../../../test/support/temp-dir.js";
import { createSqliteStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/store.js";
import { describeStoreConformance } from "./conformance.js";

describeStoreConformance("sqlite", async () => {
  const dir = tempDir("errand-store-");
  const path = join(dir, "errand.db");
  const opened: Store[] = [];
  const openOne = async () => {
    const store = await createSqliteStore({ path });
    opened.push(store);
    return store;
  };
  return {
    store: await openOne(),
    reopen: openOne,
    failWrites: async (table) => {
      // Another connection changes the schema; the store's statements are prepared again on their next use.
      const admin = new BetterSqlite3(path);
      const raise = "BEGIN SELECT RAISE(ABORT, 'injected failure'); END";
      admin.exec(
        `CREATE TRIGGER fail_insert BEFORE INSERT ON ${table} ${raise}; CREATE TRIGGER fail_update BEFORE UPDATE ON ${table} ${raise};`,
      );
      admin.close();
      return async () => {
        const again = new BetterSqlite3(path);
        again.exec("DROP TRIGGER fail_insert; DROP TRIGGER fail_update;");
        again.close();
      };
    },
    cleanup: async () => {
      for (const store of opened) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
