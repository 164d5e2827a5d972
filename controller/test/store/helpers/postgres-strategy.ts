import { execFile, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const CONTROLLER_DIR = fileURLToPath(new URL("../../../", import.meta.url));

/** How the tests get a PostgreSQL server: a URL given, a container, or a local initdb. */
export type PostgresStrategy =
  | { kind: "url"; url: string; reason: string }
  | { kind: "container"; reason: string }
  | { kind: "initdb"; bin: string; reason: string }
  | { kind: "none"; reason: string };

/** The bound of the container runtime probe (a child process that loads testcontainers, 2 to 7 s on a busy machine): an engine that accepts but never answers must not hang the tests. */
export const RUNTIME_PROBE_MS = 15_000;

/**
 * The newest PostgreSQL server binaries on this machine: `ERRAND_PG_BIN`,
 * else Debian's /usr/lib/postgresql/<version>/bin, else `pg_config --bindir`.
 */
export function findPostgresBin(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const has = (dir: string) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"));
  const fromEnv = env.ERRAND_PG_BIN;
  if (fromEnv) return has(fromEnv) ? fromEnv : undefined;
  const debian = "/usr/lib/postgresql";
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) if (has(join(debian, version, "bin"))) return join(debian, version, "bin");
  const config = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  const dir = config.status === 0 ? config.stdout.trim() : "";
  return dir && has(dir) ? dir : undefined;
}

/**
 * Where a container runtime could be: an explicit DOCKER_HOST or
 * testcontainers config, or a Docker or Podman socket in its usual places.
 * Importing testcontainers costs seconds, so without any of these it is not
 * tried at all; with one, the real probe decides.
 */
export function runtimeHint(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.DOCKER_HOST) return `DOCKER_HOST=${env.DOCKER_HOST}`;
  const home = env.HOME ?? homedir();
  const runtimeDir = env.XDG_RUNTIME_DIR;
  const places = [
    join(home, ".testcontainers.properties"),
    "/var/run/docker.sock",
    join(home, ".docker", "run", "docker.sock"),
    join(home, ".docker", "desktop", "docker.sock"),
    ...(runtimeDir ? [join(runtimeDir, "docker.sock"), join(runtimeDir, "podman", "podman.sock")] : []),
  ];
  return places.find((place) => existsSync(place));
}

const PROBE = `import("testcontainers").then((m) => m.getContainerRuntimeClient()).then(
  () => process.exit(0),
  (error) => { process.stderr.write(String(error?.message ?? error)); process.exit(1); },
);`;

/**
 * Asks testcontainers for a working container runtime with `env`, in a
 * child process killed after `timeoutMs` (an engine that accepts but never
 * answers leaves testcontainers waiting for good, and it remembers what it
 * found for the life of its process). Resolves with undefined when a
 * runtime answers, else with why not.
 */
export function probeContainerRuntime(
  env: NodeJS.ProcessEnv,
  timeoutMs = RUNTIME_PROBE_MS,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    // cwd: the controller's folder, where testcontainers is installed.
    const child = execFile(
      process.execPath,
      ["--input-type=module", "-e", PROBE],
      { env, cwd: CONTROLLER_DIR, timeout: timeoutMs, killSignal: "SIGKILL" },
      (error, _stdout, stderr) => {
        if (!error) resolve(undefined);
        else if (error.killed) resolve(`no container runtime answered within ${timeoutMs} ms`);
        else resolve(`no working container runtime (${stderr.trim().split("\n")[0] || error.message})`);
      },
    );
    child.stdin?.end();
  });
}

/**
 * Chooses the server: `ERRAND_PG_URL` when given; else testcontainers when
 * a container runtime answers; else PostgreSQL's own initdb and pg_ctl.
 */
export async function choosePostgresStrategy(
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = RUNTIME_PROBE_MS,
): Promise<PostgresStrategy> {
  if (env.ERRAND_PG_URL) return { kind: "url", url: env.ERRAND_PG_URL, reason: "ERRAND_PG_URL is set" };
  const hint = runtimeHint(env);
  let why = "no container runtime (no DOCKER_HOST, no Docker or Podman socket)";
  if (hint !== undefined) {
    const failure = await probeContainerRuntime(env, timeoutMs);
    if (failure === undefined) return { kind: "container", reason: `a container runtime answers (${hint})` };
    why = `${hint}: ${failure}`;
  }
  const bin = findPostgresBin(env);
  if (bin !== undefined) return { kind: "initdb", bin, reason: why };
  return { kind: "none", reason: `${why}, and no PostgreSQL binaries (apt-get install postgresql, or ERRAND_PG_BIN)` };
}

/** One line saying which server the tests use and why, for the test output. */
export function describeStrategy(strategy: PostgresStrategy): string {
  const what = {
    url: "the server at ERRAND_PG_URL",
    container: "a testcontainers container (postgres:15-alpine)",
    initdb: "a local initdb/pg_ctl server",
    none: "none",
  }[strategy.kind];
  return `PostgreSQL for the tests: ${what} (${strategy.reason})`;
}
