import { execFile, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";

const run = promisify(execFile);

/**
 * The newest PostgreSQL server binaries on this machine: `ERRAND_PG_BIN`,
 * else Debian's /usr/lib/postgresql/<version>/bin, else `pg_config --bindir`.
 */
function findBin(): string | undefined {
  const has = (dir: string) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"));
  const fromEnv = process.env.ERRAND_PG_BIN;
  if (fromEnv) return has(fromEnv) ? fromEnv : undefined;
  const debian = "/usr/lib/postgresql";
  const versions = existsSync(debian) ? readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) if (has(join(debian, version, "bin"))) return join(debian, version, "bin");
  const config = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  const dir = config.status === 0 ? config.stdout.trim() : "";
  return dir && has(dir) ? dir : undefined;
}

const BIN = findBin();

/**
 * True when these tests can start a server. `.ci/run` installs Debian's
 * postgresql and sets ERRAND_REQUIRE_POSTGRES=1: there a missing server
 * fails the suites instead of skipping them.
 */
export const postgresRunnable = BIN !== undefined || process.env.ERRAND_REQUIRE_POSTGRES === "1";

/** Ends the names of suites that need a server, so that a skip says why. */
export const NEEDS_POSTGRES = "(needs PostgreSQL's initdb and pg_ctl: apt-get install postgresql, or ERRAND_PG_BIN)";

/** A throwaway PostgreSQL server on 127.0.0.1 whose superuser is `test`, with trust authentication but for {@link PostgresServer.role}s given a password. */
export interface PostgresServer {
  port: number;
  /** A connection URL: the `postgres` database as `test` unless told otherwise; `schema` sets the search_path. */
  url(options?: { database?: string; user?: string; password?: string; schema?: string }): string;
  /** Runs SQL as the superuser on `database` (default `postgres`). */
  sql<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, params?: unknown[], database?: string): Promise<R[]>;
  /** Creates a login role; one with a password must give it (scram-sha-256), the others log in without. */
  role(name: string, options?: { password?: string; superuser?: boolean }): Promise<void>;
  /** A new empty schema on the `postgres` database: its name and a URL whose search_path is it. */
  freshSchema(): Promise<{ schema: string; url: string }>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server in a temporary folder: initdb and pg_ctl, as the
 * `postgres` user when this process is root (initdb refuses root), with
 * fsync off. Stop it with {@link PostgresServer.stop}; a test process that
 * exits without doing so takes the server down with it.
 */
export async function startPostgres(): Promise<PostgresServer> {
  if (BIN === undefined) throw new Error(`no PostgreSQL server binaries found ${NEEDS_POSTGRES}`);
  const dir = mkdtempSync(join(tmpdir(), "errand-pg-"));
  const data = join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const [uid, gid] = ["-u", "-g"].map((flag) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout));
    chownSync(dir, uid as number, gid as number);
  }
  const pgRun = (tool: string, args: string[]) => (asRoot ? run("runuser", ["-u", "postgres", "--", join(BIN, tool), ...args]) : run(join(BIN, tool), args));
  await pgRun("initdb", ["-D", data, "-U", "test", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"]);
  writeFileSync(join(data, "pg_hba.conf"), "local all all trust\nhost all +password_required 127.0.0.1/32 scram-sha-256\nhost all all 127.0.0.1/32 trust\n");
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
    try {
      await pgRun("pg_ctl", ["-D", data, "-w", "-l", join(dir, "server.log"), "-o", settings, "start"]);
      break;
    } catch (error) {
      // Another test file may have taken the port between the probe and the start.
      if (attempt === 3) throw new Error(`PostgreSQL did not start: ${readFileSync(join(dir, "server.log"), "utf8")}`, { cause: error });
    }
  }
  const pid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  const killOnExit = () => process.kill(pid, "SIGQUIT");
  process.once("exit", killOnExit);

  const url: PostgresServer["url"] = (o = {}) => {
    const auth = `${encodeURIComponent(o.user ?? "test")}${o.password === undefined ? "" : `:${encodeURIComponent(o.password)}`}`;
    const options = o.schema === undefined ? "" : `?options=${encodeURIComponent(`-c search_path=${o.schema}`)}`;
    return `postgres://${auth}@127.0.0.1:${port}/${o.database ?? "postgres"}${options}`;
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
  const sql: PostgresServer["sql"] = async (text, params = [], database = "postgres") => (await (await admin(database)).query(text, params)).rows;
  await sql("CREATE ROLE password_required NOLOGIN");
  let schemas = 0;
  return {
    port,
    url,
    sql,
    async role(name, options = {}) {
      const password = options.password === undefined ? "" : ` PASSWORD ${pg.escapeLiteral(options.password)}`;
      await sql(`CREATE ROLE ${pg.escapeIdentifier(name)} LOGIN${options.superuser ? " SUPERUSER" : ""}${password}`);
      if (options.password !== undefined) await sql(`GRANT password_required TO ${pg.escapeIdentifier(name)}`);
    },
    async freshSchema() {
      const schema = `s${process.pid}_${++schemas}`;
      await sql(`CREATE SCHEMA ${schema}`);
      return { schema, url: url({ schema }) };
    },
    async stop() {
      for (const client of admins.values()) await (await client).end();
      process.off("exit", killOnExit);
      // SIGINT is PostgreSQL's fast shutdown: sessions are ended, nothing waits for clients.
      process.kill(pid, "SIGINT");
      for (let i = 0; i < 400 && alive(pid); i++) await new Promise((r) => setTimeout(r, 25));
      if (alive(pid)) process.kill(pid, "SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts a server before the tests of the enclosing suite and stops it after them; call the result inside a test. */
export function usePostgresServer(): () => PostgresServer {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);
  return () => {
    if (!server) throw new Error("the PostgreSQL server did not start (see the beforeAll error)");
    return server;
  };
}
