import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../../src/store/postgres/migrations.js";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import type { Store } from "../../src/store/store.js";
import { expectCode, ticket } from "./conformance/support.js";
import { NEEDS_POSTGRES, postgresRunnable, usePostgresServer } from "./helpers/postgres-server.js";

/** A port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Asserts that opening a store on `url` fails with a StoreError, and returns its message and hint. */
async function openFails(url: string): Promise<{ message: string; hint: string }> {
  const error = await expectCode(createPostgresStore({ connectionString: url }), "ERR_STORE");
  return { message: error.message, hint: error.hint as string };
}

describe.runIf(postgresRunnable)(`PostgreSQL store: errors say which server and what to do ${NEEDS_POSTGRES}`, () => {
  const server = usePostgresServer();

  it("nothing listening: names host:port/database and the fix, never the password", async () => {
    const port = await closedPort();
    const { message, hint } = await openFails(`postgres://errand:s3cret-pw@127.0.0.1:${port}/errand`);
    expect(message).toContain(
      `store 127.0.0.1:${port}/errand: connecting failed: nothing accepts connections at 127.0.0.1:${port}`,
    );
    expect(hint).toMatch(/start PostgreSQL there.*listen_addresses/);
    expect(`${message} ${hint}`).not.toContain("s3cret-pw");
  });

  it("a wrong password: says the authentication failed for the role, and where the password is set", async () => {
    await server().role("with_password", { password: "right-one" });
    const { message, hint } = await openFails(server().url({ user: "with_password", password: "wrong-one" }));
    expect(message).toMatch(/password authentication failed for the role "with_password" \(28P01/);
    expect(hint).toContain("store.url_secret");
    expect(`${message} ${hint}`).not.toContain("wrong-one");
    await server().sql("CREATE SCHEMA with_password AUTHORIZATION with_password");
    const store = await createPostgresStore({
      connectionString: server().url({ user: "with_password", password: "right-one", schema: "with_password" }),
    });
    await store.close();
  });

  it("an unknown role or database: says which, and how to create it", async () => {
    const role = await openFails(server().url({ user: "ghost" }));
    expect(role.message).toMatch(/refused the login of the role "ghost" \(28000: role "ghost" does not exist\)/);
    expect(role.hint).toContain("CREATE ROLE ghost LOGIN");
    const database = await openFails(server().url({ database: "missing_db" }));
    expect(database.message).toContain(
      `store ${server().host}:${server().port}/missing_db: connecting failed: the database "missing_db" does not exist`,
    );
    expect(database.hint).toContain("CREATE DATABASE missing_db OWNER test");
  });

  it("no right to create tables: the hint's commands make it work", async () => {
    await server().role("plain");
    // PostgreSQL 15 and later let only the owner create in the schema public.
    const denied = await openFails(server().url({ user: "plain" }));
    expect(denied.message).toMatch(
      /preparing the schema failed: the role "plain" lacks a privilege errand needs \(42501: permission denied for schema public/,
    );
    expect(denied.hint).toContain("CREATE SCHEMA errand AUTHORIZATION plain");
    await server().sql("CREATE SCHEMA errand AUTHORIZATION plain");
    const store = await createPostgresStore({ connectionString: server().url({ user: "plain", schema: "errand" }) });
    expect((await store.acceptTickets([ticket("p1")], "default"))[0]?.kind).toBe("queued");
    await store.close();
  });

  it("a search_path naming no schema, and a URL it cannot read", async () => {
    const nowhere = await openFails(server().url({ schema: "not_there" }));
    expect(nowhere.message).toContain("the search_path names no schema that exists and this role may use");
    const unreadable = await openFails("postgres://test:hunter2@127.0.0.1:notaport/x");
    expect(unreadable.message).toContain("the PostgreSQL connection URL of the store cannot be read");
    expect(unreadable.hint).toContain("postgres://USER:PASSWORD@HOST:5432/DATABASE");
    expect(`${unreadable.message} ${unreadable.hint}`).not.toContain("hunter2");
  });

  it("refuses a schema a newer errand migrated, untouched", async () => {
    const { schema, url } = await server().freshSchema();
    await (await createPostgresStore({ connectionString: url })).close();
    await server().sql(
      `INSERT INTO ${schema}.errand_migrations (version, name, applied_at) VALUES (99, 'from the future', 0)`,
    );
    const { message, hint } = await openFails(url);
    expect(message).toContain(
      `(schema ${schema}) has schema version 99, but this errand knows versions up to ${SCHEMA_VERSION}: a newer errand wrote it`,
    );
    expect(hint).toMatch(/run the errand version that wrote it/);
    expect(await server().sql(`SELECT version FROM ${schema}.errand_migrations ORDER BY version`)).toEqual([
      ...Array.from({ length: SCHEMA_VERSION }, (_, i) => ({ version: i + 1 })),
      { version: 99 },
    ]);
  });

  it("refuses a value PostgreSQL cannot hold, and stores none of its batch", async () => {
    const store = await createPostgresStore({ connectionString: (await server().freshSchema()).url });
    try {
      const error = await expectCode(
        store.acceptTickets([ticket("fine"), ticket("nul\u0000id")], "default"),
        "ERR_STORE",
      );
      expect(error.message).toContain("a value holds a NUL character (\\u0000), which PostgreSQL text cannot store");
      expect(await store.getTicket({ source: "generic", id: "fine" })).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it("outlives the server ending its connections: a call fails at most with 'connection lost', the next goes through", async () => {
    const { schema, url } = await server().freshSchema();
    const store: Store = await createPostgresStore({ connectionString: url });
    try {
      await store.acceptTickets([ticket("before")], "default");
      const ended = await server().sql<{ ended: boolean }>(
        "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = 'errand' AND query NOT LIKE '%pg_terminate_backend%'",
      );
      expect(ended.length).toBeGreaterThan(0);
      const answers: string[] = [];
      for (let i = 0; i < 3 && answers.at(-1) !== "ok"; i++) {
        answers.push(
          await store.countRuns().then(
            () => "ok",
            (e: Error) => e.message,
          ),
        );
      }
      expect(answers.at(-1)).toBe("ok");
      for (const failure of answers.slice(0, -1)) expect(failure).toMatch(/the connection to the server was lost/);
      expect((await store.acceptTickets([ticket("after")], "default"))[0]?.kind).toBe("queued");
      expect(await server().sql(`SELECT id FROM ${schema}.tickets ORDER BY id`)).toEqual([
        { id: "after" },
        { id: "before" },
      ]);
    } finally {
      await store.close();
    }
  });
});
