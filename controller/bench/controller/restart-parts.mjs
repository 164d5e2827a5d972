// One controller start, in its own fresh Node process, cut into its parts:
// loading the modules, reading the config, opening the store (connection
// settings, migrations, prepared statements), the recovery queries
// (release claims, runs left Running) and the readiness query, then the
// whole createController + start(). Prints one JSON object on stdout.
// Usage: node restart-parts.mjs <errand.yaml>   (secrets in the environment)
const since = () => performance.now();
const parts = { nodeToScript: since() };
const mark = async (name, fn) => {
  const t = since();
  const value = await fn();
  parts[name] = since() - t;
  return value;
};
const dist = (path) => new URL(`../../dist/${path}`, import.meta.url).href;

const sdk = await mark("importSdk", () => import("@errand/channel-sdk/host"));
const { createController } = await mark("importController", () => import(dist("controller.js")));
const { loadForCli } = await mark("importCli", () => import(dist("cli/load-for-cli.js")));
const { openDatabase } = await import(dist("store/sqlite/open-database.js"));
const { migrate } = await import(dist("store/sqlite/migrations.js"));
const { prepareStatements } = await import(dist("store/sqlite/statements.js"));
const { createSqliteStore } = await import(dist("store/sqlite/sqlite-store.js"));

const { config, secrets } = await mark("loadConfig", () => loadForCli(process.argv[2], true));
const path = config.store.path;
const db = await mark("storeOpen", () => openDatabase(path));
await mark("storeMigrate", () => migrate(db, path, Date.now()));
await mark("storePrepare", () => prepareStatements(db));
db.close();
const store = await mark("createSqliteStore", () => createSqliteStore({ path }));
await mark("releaseAllClaims", () => store.releaseAllClaims());
const left = await mark("recoveryQuery", () => store.listRuns({ states: ["Running"], limit: 100_000 }));
const counts = await mark("countRuns", () => store.countRuns());
await store.close();
parts.runsStored = Object.values(counts).reduce((a, n) => a + n, 0);
parts.leftRunning = left.length;

const logger = sdk.createLogger({ level: "warn", write: () => {} });
const controller = await mark("createController", () => createController({ config, secrets, logger }));
await mark("start", () => controller.start());
parts.total = since();
await controller.stop();
process.stdout.write(`${JSON.stringify(parts)}\n`);
