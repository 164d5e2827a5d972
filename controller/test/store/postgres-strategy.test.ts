import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { startLocalPostgres } from "./helpers/postgres-local.mjs";
import { wrap } from "./helpers/postgres-server.js";
import { choosePostgresStrategy, describeStrategy, findPostgresBin, runtimeHint } from "./helpers/postgres-strategy.js";
import { serverAtUrl } from "./helpers/running-server.js";

// How the PostgreSQL tests get their server: ERRAND_PG_URL, else testcontainers
// when a container runtime answers, else initdb and pg_ctl. This machine has a
// `docker` client but no engine: the fallback is what runs here.
const home = () => tempDir("errand-pg-home-");
const noRuntime = () => ({ HOME: home(), XDG_RUNTIME_DIR: home(), PATH: process.env.PATH });

describe("the choice of PostgreSQL server for the tests", () => {
  it("takes ERRAND_PG_URL when it is given, before anything else", async () => {
    const strategy = await choosePostgresStrategy({
      ...noRuntime(),
      ERRAND_PG_URL: "postgres://ci:pw@db.internal:5433/postgres",
      DOCKER_HOST: "unix:///nowhere.sock",
    });
    expect(strategy).toEqual({
      kind: "url",
      url: "postgres://ci:pw@db.internal:5433/postgres",
      reason: "ERRAND_PG_URL is set",
    });
  });

  it.runIf(findPostgresBin() !== undefined)(
    "falls back to initdb when nothing suggests a container runtime, without loading testcontainers",
    async () => {
      const env = noRuntime();
      expect(runtimeHint(env)).toBeUndefined();
      const strategy = await choosePostgresStrategy(env);
      expect(strategy).toMatchObject({
        kind: "initdb",
        bin: findPostgresBin(),
        reason: "no container runtime (no DOCKER_HOST, no Docker or Podman socket)",
      });
      expect(describeStrategy(strategy)).toBe(
        "PostgreSQL for the tests: a local initdb/pg_ctl server (no container runtime (no DOCKER_HOST, no Docker or Podman socket))",
      );
    },
  );

  it.runIf(findPostgresBin() !== undefined)(
    "falls back to initdb when DOCKER_HOST names a socket where no engine listens, saying what testcontainers found",
    async () => {
      const socket = join(home(), "docker.sock");
      const strategy = await choosePostgresStrategy({ ...noRuntime(), DOCKER_HOST: `unix://${socket}` });
      expect(strategy.kind).toBe("initdb");
      expect(strategy.reason).toBe(
        `DOCKER_HOST=unix://${socket}: no working container runtime (Could not find a working container runtime strategy)`,
      );
    },
    30_000,
  );

  it.runIf(findPostgresBin() !== undefined)(
    "does not hang on an engine that accepts connections but never answers: the probe is bounded",
    async () => {
      const dir = home();
      const socket = join(dir, "docker.sock");
      const connections = new Set<Socket>();
      const silent = createServer((connection) => {
        connections.add(connection);
        connection.on("data", () => {});
      });
      await new Promise<void>((resolve) => silent.listen(socket, resolve));
      try {
        const strategy = await choosePostgresStrategy({ ...noRuntime(), DOCKER_HOST: `unix://${socket}` }, 12_000);
        expect(strategy).toMatchObject({
          kind: "initdb",
          reason: `DOCKER_HOST=unix://${socket}: no container runtime answered within 12000 ms`,
        });
        expect(connections.size).toBeGreaterThan(0);
      } finally {
        for (const connection of connections) connection.destroy();
        silent.close();
      }
    },
    30_000,
  );

  it("says so when there is neither a runtime nor PostgreSQL binaries", async () => {
    const strategy = await choosePostgresStrategy({ ...noRuntime(), ERRAND_PG_BIN: home() });
    expect(strategy).toEqual({
      kind: "none",
      reason:
        "no container runtime (no DOCKER_HOST, no Docker or Podman socket), and no PostgreSQL binaries (apt-get install postgresql, or ERRAND_PG_BIN)",
    });
  });
});

describe.runIf(findPostgresBin() !== undefined)(
  "a server the tests did not start (ERRAND_PG_URL, or a container)",
  () => {
    it("gets the tests' authentication layout through SQL: a role with a password must give it, the superuser keeps working", async () => {
      const local = await startLocalPostgres(findPostgresBin()!);
      try {
        // Start from a server that trusts everyone, as a CI service or container may.
        const trusting = new pg.Client({ connectionString: `postgres://test@127.0.0.1:${local.port}/postgres` });
        await trusting.connect();
        const [{ hba_file: file }] = (await trusting.query("SHOW hba_file")).rows as [{ hba_file: string }];
        await trusting.query(
          `COPY (SELECT 'host all all all trust' UNION ALL SELECT 'local all all trust') TO ${pg.escapeLiteral(file)}`,
        );
        await trusting.query("SELECT pg_reload_conf()");
        await trusting.end();

        const server = await wrap(serverAtUrl(`postgres://test@127.0.0.1:${local.port}/postgres`), "url");
        expect(server.url()).toBe(`postgres://test@127.0.0.1:${local.port}/postgres`);
        await server.role("guarded", { password: "right" });
        await server.role("guarded", { password: "right" });
        const wrong = new pg.Client({ connectionString: server.url({ user: "guarded", password: "wrong" }) });
        await expect(wrong.connect()).rejects.toThrow(/password authentication failed for user "guarded"/);
        const right = new pg.Client({ connectionString: server.url({ user: "guarded", password: "right" }) });
        await right.connect();
        await right.end();
        expect(await server.sql("SELECT 1 AS one")).toEqual([{ one: 1 }]);
        await server.stop();
      } finally {
        await local.stop();
      }
    }, 60_000);
  },
);
