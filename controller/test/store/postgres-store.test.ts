import { describe } from "vitest";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import type { Store } from "../../src/store/store.js";
import { describeStoreConformance } from "./conformance.js";
import { NEEDS_POSTGRES, postgresRunnable, usePostgresServer } from "./helpers/postgres-server.js";

describe.runIf(postgresRunnable)(`PostgreSQL store ${NEEDS_POSTGRES}`, () => {
  const server = usePostgresServer();
  // A schema per test: each gets empty tables, its own migrations and its own leader lock.
  describeStoreConformance("postgres", async () => {
    const { schema, url } = await server().freshSchema();
    const opened: Store[] = [];
    const openOne = async () => {
      const store = await createPostgresStore({ connectionString: url });
      opened.push(store);
      return store;
    };
    return {
      store: await openOne(),
      reopen: openOne,
      failWrites: async (table) => {
        await server().sql(
          `CREATE FUNCTION ${schema}.injected_failure() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`,
        );
        await server().sql(
          `CREATE TRIGGER injected_failure BEFORE INSERT OR UPDATE ON ${schema}.${table} FOR EACH ROW EXECUTE FUNCTION ${schema}.injected_failure()`,
        );
        return async () => {
          await server().sql(
            `DROP TRIGGER injected_failure ON ${schema}.${table}; DROP FUNCTION ${schema}.injected_failure()`,
          );
        };
      },
      cleanup: async () => {
        for (const store of opened) await store.close();
        await server().sql(`DROP SCHEMA ${schema} CASCADE`);
      },
    };
  });
});
