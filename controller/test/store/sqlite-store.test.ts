import { rmSync } from "node:fs";
import { join } from "node:path";
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
    cleanup: async () => {
      for (const store of opened) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
