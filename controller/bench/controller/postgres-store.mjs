// The controller bench on the PostgreSQL store (`--store postgres`, and in the
// default run after the SQLite phases): a throwaway server started the way the
// store tests start theirs (initdb and pg_ctl on 127.0.0.1, fsync off), the
// same installation with `store.backend: postgres`, then the same throughput
// and latency phases, read from PostgreSQL.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import pg from "pg";
import { startLocalPostgres } from "../../test/store/helpers/postgres-local.mjs";
import { stopController } from "./controller-process.mjs";
import { createInstallation } from "./installation.mjs";
import { latency, saturate } from "./phases.mjs";
import { livePids, treeTicksMs } from "./stats.mjs";

/**
 * `--store sqlite|postgres|both|alternate` (default both): which stores the run measures; `alternate` compares the
 * two stores' throughput alone, in alternating rounds (store-rounds.mjs).
 */
export function storeOption(argv = process.argv) {
  const i = argv.indexOf("--store");
  const value = i === -1 ? "both" : argv[i + 1];
  if (!["sqlite", "postgres", "both", "alternate"].includes(value))
    throw new Error(`--store takes sqlite, postgres, both or alternate, got ${value}`);
  return { sqlite: value !== "postgres", postgres: value !== "sqlite", alternate: value === "alternate" };
}

/** ERRAND_PG_BIN, else the newest of Debian's /usr/lib/postgresql/<version>/bin. */
function postgresBin() {
  if (process.env.ERRAND_PG_BIN) return process.env.ERRAND_PG_BIN;
  const versions = readdirSync("/usr/lib/postgresql")
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0)
    throw new Error("no PostgreSQL server binaries: apt-get install postgresql, or set ERRAND_PG_BIN");
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

/** How the controller reaches the bench's server: over its Unix socket (the default), or TCP on 127.0.0.1. */
export const TRANSPORTS = ["socket", "tcp"];

/** BENCH_PG_TRANSPORT (socket or tcp; default socket): the transport of the phases that measure one. */
function chosenTransport(env = process.env) {
  const value = env.BENCH_PG_TRANSPORT ?? "socket";
  if (!TRANSPORTS.includes(value)) throw new Error(`BENCH_PG_TRANSPORT takes socket or tcp, got ${value}`);
  return value;
}

/** How a report names the server and its transport. */
export const serverLabel = (transport) =>
  `PostgreSQL (local server over ${transport === "socket" ? "its Unix socket" : "TCP on 127.0.0.1"}, fsync off)`;

/**
 * Starts the server; `urls[transport]` is what the controller connects to (as the superuser, trust), `url` the
 * chosen transport's. A controller on the database's host reaches it over the socket (docs/postgres-store.md);
 * TCP on 127.0.0.1 costs both sides more per statement, and stands for a server on another machine.
 */
export async function startBenchPostgres() {
  // BENCH_PG_STATEMENTS=1: the server counts its statements, and the bench prints the costliest per run.
  const statements = process.env.BENCH_PG_STATEMENTS === "1";
  const settings = [
    statements
      ? "-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all -c pg_stat_statements.track_planning=on"
      : "",
    // BENCH_PG_SETTINGS: more server settings, as postgres takes them (`-c shared_buffers=1GB`).
    process.env.BENCH_PG_SETTINGS ?? "",
  ];
  const server = await startLocalPostgres(postgresBin(), settings.join(" "));
  const urls = {
    socket: `postgres://${server.user}@/postgres?host=${encodeURIComponent(server.socketDir)}&port=${server.port}`,
    tcp: `postgres://${server.user}@127.0.0.1:${server.port}/postgres`,
  };
  const transport = chosenTransport();
  return { ...server, urls, transport, url: urls[transport] };
}

/** An installation like createInstallation's, whose store is the PostgreSQL at `url` (a schema of its own). */
export async function createPostgresInstallation(options, url, schema) {
  const installation = await createInstallation(options);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const schemaUrl = `${url}${url.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  // `errand run` reads the secret store.url_secret names from its environment (inherited).
  process.env.ERRAND_SECRET_BENCH_PG_URL = schemaUrl;
  const config = readFileSync(installation.configFile, "utf8").replace(
    /^store:\n {2}path: .*$/m,
    "store:\n  backend: postgres\n  url_secret: bench-pg-url",
  );
  writeFileSync(installation.configFile, config);
  return { ...installation, openReader: () => openPostgresReader(schemaUrl) };
}

/** The bench's view of the stored runs (the SQLite reader's methods, async). */
export async function openPostgresReader(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const one = async (text, params) => (await client.query(text, params)).rows;
  return {
    finished: async () => Number((await one("SELECT COUNT(*) AS n FROM task_runs WHERE finished_at IS NOT NULL"))[0].n),
    states: async () =>
      Object.fromEntries(
        (await one("SELECT state, COUNT(*) AS n FROM task_runs GROUP BY state")).map((r) => [r.state, Number(r.n)]),
      ),
    window: async () => {
      const [row] = await one("SELECT MIN(started_at) AS first, MAX(finished_at) AS last FROM task_runs");
      return { firstStart: Number(row.first), lastFinish: Number(row.last) };
    },
    runningAt: async (prefix) =>
      new Map(
        (
          await one(
            `SELECT r.ticket_id AS id, t.at AS at FROM transitions t JOIN task_runs r ON r.id = t.run_id
           WHERE t.to_state = 'Running' AND r.ticket_id LIKE $1 || '-%'`,
            [prefix],
          )
        ).map((r) => [r.id, Number(r.at)]),
      ),
    close: () => client.end(),
  };
}

/**
 * Throughput (`total` tickets) and then latency (open loop at half that
 * rate, on the same controller with the runs stored) on a fresh server.
 */
export async function postgresPhases({ total, concurrency, latencySeconds, phase }) {
  const server = await startBenchPostgres();
  try {
    phase("controller, PostgreSQL store");
    const installation = await createPostgresInstallation({ concurrency }, server.url, "bench");
    const statements = process.env.BENCH_PG_STATEMENTS === "1" ? await statementCounter(server.url) : undefined;
    const serverBefore = treeTicksMs(server.pid);
    await statements?.reset();
    const sat = await saturate(installation, total, "postgres");
    await statements?.print(total);
    if (statements) printServerProcesses(server.pid, total);
    // The server's processes are not the controller's: their CPU per run, counted apart.
    sat.result.serverMsPerRun = (treeTicksMs(server.pid) - serverBefore) / total;
    phase("latency, PostgreSQL store");
    const lat = await latency(installation, sat.running, 0.5 * sat.result.perSecond, latencySeconds, total);
    await stopController(sat.running);
    if (process.env.BENCH_KEEP !== "1") rmSync(installation.dir, { recursive: true, force: true });
    return { sat: sat.result, lat, transport: server.transport };
  } finally {
    await server.stop();
  }
}

/** pg_stat_statements on the bench's server: reset before a phase, then the costliest statements per run. */
async function statementCounter(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  return {
    reset: () => client.query("SELECT pg_stat_statements_reset(), pg_stat_reset()"),
    async print(runs) {
      const { rows } = await client.query(
        `SELECT calls, total_exec_time AS ms, total_plan_time AS plan, rows, shared_blks_hit + shared_blks_read AS blocks, query FROM pg_stat_statements
         ORDER BY total_exec_time + total_plan_time DESC LIMIT 25`,
      );
      console.log(
        "\n| calls/run | exec+plan µs/run | µs/call | rows/call | buffers/call | statement |\n|---|---|---|---|---|---|",
      );
      for (const r of rows)
        console.log(
          `| ${(r.calls / runs).toFixed(2)} | ${(((r.ms + r.plan) * 1000) / runs).toFixed(0)} | ${(((r.ms + r.plan) * 1000) / r.calls).toFixed(0)} | ${(r.rows / r.calls).toFixed(2)} | ${(r.blocks / r.calls).toFixed(1)} | ${r.query.replace(/\s+/g, " ").slice(0, 140)} |`,
        );
      const [all] = (await client.query("SELECT SUM(calls) AS calls FROM pg_stat_statements")).rows;
      console.log(`statements per run: ${(Number(all.calls) / runs).toFixed(1)}`);
      // Whether updates stayed on their page (heap-only: no index written) or wrote a new entry into every index.
      const tables = await client.query(
        `SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE n_tup_upd + n_tup_ins > 0 ORDER BY relname`,
      );
      for (const t of tables.rows)
        console.log(
          `table ${t.relname}: ${(t.n_tup_ins / runs).toFixed(2)} inserts and ${(t.n_tup_upd / runs).toFixed(2)} updates per run, of which heap-only ${(t.n_tup_hot_upd / runs).toFixed(2)}`,
        );
      // How much each index is read: a scan that steps over many entries per scan is where a plan goes wrong.
      const indexes = await client.query(
        `SELECT indexrelname, idx_scan, idx_tup_read, idx_tup_fetch FROM pg_stat_user_indexes WHERE idx_scan > 0 ORDER BY idx_tup_read DESC`,
      );
      for (const i of indexes.rows)
        console.log(
          `index ${i.indexrelname}: ${(i.idx_scan / runs).toFixed(2)} scans per run, ${(i.idx_tup_read / i.idx_scan).toFixed(1)} entries read and ${(i.idx_tup_fetch / i.idx_scan).toFixed(1)} rows fetched per scan`,
        );
      await client.end();
    },
  };
}

/** The CPU of each of the server's processes (user + system), per run, by what the process is. */
function printServerProcesses(pid, runs) {
  const byKind = new Map();
  for (const child of livePids(pid)) {
    try {
      const kind = readFileSync(`/proc/${child}/cmdline`, "utf8")
        .replace(/\0/g, " ")
        .trim()
        .replace(/ \d+\.\d+\.\d+\.\d+\(\d+\)/, "");
      byKind.set(kind, (byKind.get(kind) ?? 0) + treeTicksMs(child));
    } catch {
      // Ended meanwhile.
    }
  }
  for (const [kind, ms] of [...byKind].sort((a, b) => b[1] - a[1]))
    console.log(`server process: ${(ms / runs).toFixed(3)} ms per run: ${kind}`);
}

/** The two stores side by side, after the main report. */
export function printStoreComparison({ sqlite, postgres }) {
  const f1 = (v) => v.toFixed(1);
  const f2 = (v) => v.toFixed(2);
  const cpu = ({ sat }) =>
    `controller ${f2(sat.cpuMsPerRun)} + spawner ${f2(sat.spawnerCpuMsPerRun)} + engine ${f2(sat.engineCpuMsPerRun)}${sat.serverMsPerRun === undefined ? "" : ` + server ${f2(sat.serverMsPerRun)}`} ms; whole machine ${f2(sat.machineMsPerRun)} ms`;
  const row = (name, r) =>
    r
      ? `| ${name} | ${f1(r.sat.perSecond)} runs/s | ${cpu(r)} | p50 ${r.lat.p50} ms, p99 ${r.lat.p99} ms, max ${r.lat.max} ms (at ${f1(r.lat.rate)} tickets/s) | ${JSON.stringify(r.sat.states)} |`
      : undefined;
  console.log("\n| store | throughput (full path) | CPU per run | 200 → Running | run states |\n|---|---|---|---|---|");
  for (const line of [row("SQLite (WAL file)", sqlite), postgres && row(serverLabel(postgres.transport), postgres)])
    if (line) console.log(line);
}
