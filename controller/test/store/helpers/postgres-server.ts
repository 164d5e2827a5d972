import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { startContainerPostgres } from "./postgres-container.js";
import { HBA_LINES, startLocalPostgres } from "./postgres-local.mjs";
import {
  choosePostgresStrategy,
  describeStrategy,
  findPostgresBin,
  type PostgresStrategy,
  runtimeHint,
} from "./postgres-strategy.js";
import { type RunningServer, serverAtUrl } from "./running-server.js";

/**
 * True when these tests can get a server: ERRAND_PG_URL, a container
 * runtime that may answer, or local binaries. `.ci/run` installs Debian's
 * postgresql and sets ERRAND_REQUIRE_POSTGRES=1: there a missing server
 * fails the suites instead of skipping them.
 */
export const postgresRunnable =
  Boolean(process.env.ERRAND_PG_URL)
  || runtimeHint() !== undefined
  || findPostgresBin() !== undefined
  || process.env.ERRAND_REQUIRE_POSTGRES === "1";

/** Ends the names of suites that need a server, so that a skip says why. */
export const NEEDS_POSTGRES =
  "(needs PostgreSQL: ERRAND_PG_URL, a container runtime, or initdb and pg_ctl: apt-get install postgresql)";

/** A throwaway PostgreSQL server whose superuser needs no password, with trust authentication but for {@link PostgresServer.role}s given a password. */
export interface PostgresServer {
  host: string;
  port: number;
  /** How it was started: `url`, `container` or `initdb`. */
  kind: PostgresStrategy["kind"];
  /** A connection URL: the `postgres` database as the superuser unless told otherwise; `schema` sets the search_path. */
  url(options?: { database?: string; user?: string; password?: string; schema?: string }): string;
  /** Runs SQL as the superuser on `database` (default `postgres`). */
  sql<R extends pg.QueryResultRow = Record<string, unknown>>(
    text: string,
    params?: unknown[],
    database?: string,
  ): Promise<R[]>;
  /** Creates a login role (dropping an earlier one of that name); one with a password must give it (scram-sha-256), the others log in without. */
  role(name: string, options?: { password?: string; superuser?: boolean }): Promise<void>;
  /** A new empty schema on the `postgres` database: its name and a URL whose search_path is it. */
  freshSchema(): Promise<{ schema: string; url: string }>;
  stop(): Promise<void>;
}

let chosen: Promise<PostgresStrategy> | undefined;

/** The strategy of this test process, chosen once and printed once. */
export function postgresStrategy(): Promise<PostgresStrategy> {
  chosen ??= choosePostgresStrategy().then((strategy) => {
    process.stderr.write(`${describeStrategy(strategy)}\n`);
    return strategy;
  });
  return chosen;
}

/** Starts a server the chosen way (see postgresStrategy); stop it with {@link PostgresServer.stop}. */
export async function startPostgres(): Promise<PostgresServer> {
  const strategy = await postgresStrategy();
  if (strategy.kind === "none") throw new Error(`no PostgreSQL server for the tests: ${strategy.reason}`);
  const running =
    strategy.kind === "url"
      ? serverAtUrl(strategy.url)
      : strategy.kind === "container"
        ? await startContainerPostgres()
        : await startLocalPostgres(strategy.bin);
  return wrap(running, strategy.kind);
}

/** The tests' API over a running server; writes the tests' pg_hba.conf layout through SQL when the server was not started by them. */
export async function wrap(running: RunningServer, kind: PostgresStrategy["kind"]): Promise<PostgresServer> {
  const { host, port } = running;
  const url: PostgresServer["url"] = (o = {}) => {
    const password = o.user === undefined && o.password === undefined ? running.password : o.password;
    const auth = `${encodeURIComponent(o.user ?? running.user)}${password === undefined ? "" : `:${encodeURIComponent(password)}`}`;
    const options = o.schema === undefined ? "" : `?options=${encodeURIComponent(`-c search_path=${o.schema}`)}`;
    return `postgres://${auth}@${host.includes(":") ? `[${host}]` : host}:${port}/${o.database ?? "postgres"}${options}`;
  };
  const admins = new Map<string, Promise<pg.Client>>();
  const admin = (database: string) => {
    let client = admins.get(database);
    if (!client) {
      const c = new pg.Client({ connectionString: url({ database }) });
      // The server going down under an idle admin connection is no test failure.
      c.on("error", () => {});
      admins.set(database, (client = c.connect().then(() => c)));
    }
    return client;
  };
  const sql: PostgresServer["sql"] = async (text, params = [], database = "postgres") =>
    (await (await admin(database)).query(text, params)).rows;
  await sql(
    "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'password_required') THEN CREATE ROLE password_required NOLOGIN; END IF; END $$",
  );
  if (!running.authConfigured) {
    // A container or a given server: write the test layout of pg_hba.conf through SQL (the file is the server's own).
    const [{ hba_file: file }] = (await sql<{ hba_file: string }>("SHOW hba_file")) as [{ hba_file: string }];
    await sql(
      `COPY (SELECT unnest(ARRAY[${HBA_LINES.map((line) => pg.escapeLiteral(line)).join(", ")}])) TO ${pg.escapeLiteral(file)}`,
    );
    await sql("SELECT pg_reload_conf()");
  }
  let schemas = 0;
  return {
    host,
    port,
    kind,
    url,
    sql,
    async role(name, options = {}) {
      const id = pg.escapeIdentifier(name);
      if ((await sql("SELECT 1 FROM pg_roles WHERE rolname = $1", [name])).length > 0)
        await sql(`DROP OWNED BY ${id} CASCADE; DROP ROLE ${id}`);
      const password = options.password === undefined ? "" : ` PASSWORD ${pg.escapeLiteral(options.password)}`;
      await sql(`CREATE ROLE ${id} LOGIN${options.superuser ? " SUPERUSER" : ""}${password}`);
      if (options.password !== undefined) await sql(`GRANT password_required TO ${id}`);
    },
    async freshSchema() {
      const schema = `s${process.pid}_${++schemas}`;
      await sql(`CREATE SCHEMA ${schema}`);
      return { schema, url: url({ schema }) };
    },
    async stop() {
      for (const client of admins.values()) await (await client).end();
      await running.stop();
    },
  };
}

/** Starts a server before the tests of the enclosing suite and stops it after them; call the result inside a test. */
export function usePostgresServer(): () => PostgresServer {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  }, 60_000);
  return () => {
    if (!server) throw new Error("the PostgreSQL server did not start (see the beforeAll error)");
    return server;
  };
}
