// Bundles the `errand` command (dist/cli/bin.js, compiled by tsc) into
// dist/bin/errand.cjs, and records V8's code cache for it. Node 20 has no
// module compile cache: resolving and compiling the ~250 ES modules on the
// way to a listening webhook server (zod alone is 95) took more time than
// running them, and compiling even one bundle was the largest part of
// start-up after node's own (docs/benchmarks.md, "Start-up").
//
// - One CommonJS file (not ES modules): only a script can be compiled with
//   a code cache (vm.Script) without experimental flags. dist/bin/launch.cjs
//   (src/cli/launch.ts, what bin/errand.cjs loads) runs it through the cache.
// - Only the packages below are bundled: pure JavaScript that every start
//   needs. Everything else stays a require() of the installed package
//   (Node >= 20.19 loads ES modules through require): native addons, drivers
//   and vendor SDKs, loaded on demand, and Errand's own packages, whose
//   classes must stay one copy (errors are matched with instanceof).
// - The cache is recorded by starting `errand run` once on a throw-away
//   installation (ERRAND_CODE_CACHE=write), so it holds the functions a start
//   compiles, not only the top level.
//
// The output keeps dist/cli's depth, so paths relative to import.meta.url
// (../../package.json) still find the package's files.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
// What tsc compiled just before this script runs: the launcher reads the id and finds the cache with these.
import { BUNDLE_ID_MARKER, codeCacheFile } from "../dist/cli/code-cache.js";

const BUNDLED = new Set(["commander", "zod", "yaml", "prom-client", "tdigest", "bintrees", "@opentelemetry/api"]);
const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = `${root}dist/bin`;
const bundleId = randomBytes(8).toString("hex");

/** The package a bare specifier names: `zod/v4/core` → `zod`, `@scope/x/y` → `@scope/x`. */
const packageOf = (spec) =>
  spec
    .split("/")
    .slice(0, spec.startsWith("@") ? 2 : 1)
    .join("/");

const externalUnlessBundled = {
  name: "external-unless-bundled",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("node:") || !BUNDLED.has(packageOf(args.path)))
        return { path: args.path, external: true };
      return undefined;
    });
  },
};

// Modules that bundled packages require at load but errand never uses, made lazy: each line below must still be in
// the package's file (the build fails otherwise, naming it), and is replaced by code that requires the module on use.
// prom-client's Pushgateway brings node's http, https, tls and zlib (about 15 ms of every start; errand never pushes).
// (Tried and dropped: commander's child_process, which node's net loads anyway for the first listening server.)
const LAZY = [
  {
    file: /[\\/]prom-client[\\/]index\.js$/,
    line: "exports.Pushgateway = require('./lib/pushgateway');",
    lazy: "Object.defineProperty(exports, 'Pushgateway', { enumerable: true, get: () => require('./lib/pushgateway') });",
  },
];
const lazyRequires = {
  name: "lazy-requires",
  setup(b) {
    for (const { file, line, lazy } of LAZY) {
      b.onLoad({ filter: file }, (args) => {
        const source = readFileSync(args.path, "utf8");
        if (!source.includes(line))
          throw new Error(`${args.path} no longer reads \`${line}\`: update LAZY in ${fileURLToPath(import.meta.url)}`);
        return { contents: source.replace(line, lazy), loader: "js" };
      });
    }
  },
};

const common = {
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  // import.meta.url: the launcher passes it to the bundle (code-cache.ts); launch.cjs computes its own (banner below).
  define: { "import.meta.url": "__importMetaUrl" },
  // Dynamic imports of installed packages become require() calls: a script compiled by vm cannot import().
  supported: { "dynamic-import": false },
  logLevel: "warning",
};

rmSync(outdir, { recursive: true, force: true });
await build({
  ...common,
  entryPoints: [`${root}dist/cli/bin.js`],
  outfile: `${outdir}/errand.cjs`,
  sourcemap: "linked",
  // Less to parse: 10-15 % less CPU to a listening server. Identifiers stay, so stack traces still name functions.
  minifyWhitespace: true,
  minifySyntax: true,
  // Built-in modules imported without the node: prefix (by bundled packages) stay external too.
  plugins: [externalUnlessBundled, lazyRequires],
  footer: { js: `${BUNDLE_ID_MARKER}${bundleId}` },
  legalComments: "linked",
});
await build({
  ...common,
  entryPoints: [`${root}dist/cli/launch.js`],
  outfile: `${outdir}/launch.cjs`,
  banner: { js: 'var __importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [externalUnlessBundled],
});

await recordCodeCache();

/** Starts `errand run` on a throw-away installation with ERRAND_CODE_CACHE=write and stops it once it has started. */
async function recordCodeCache() {
  const dir = mkdtempSync(join(tmpdir(), "errand-code-cache-"));
  try {
    const config = join(dir, "errand.yaml");
    writeFileSync(
      config,
      `webhook:
  host: 127.0.0.1
  port: 0
  generic:
    auth_mode: hmac
    secret: { secret: code-cache }
engines:
  default: warm-up
  warm-up:
    kind: command
    command: [${JSON.stringify(process.execPath)}, -e, "0"]
store:
  path: ${JSON.stringify(join(dir, "errand.db"))}
execution:
  local:
    workspace_dir: ${JSON.stringify(join(dir, "workspaces"))}
    log_dir: ${JSON.stringify(join(dir, "logs"))}
ops:
  host: 127.0.0.1
  port: 0
`,
    );
    const child = spawn(process.execPath, [`${root}bin/errand.cjs`, "run", "--config", config], {
      env: { ...process.env, ERRAND_CODE_CACHE: "write", ERRAND_SECRET_CODE_CACHE: "a-throw-away-secret" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
    const started = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), 30_000);
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
        if (stderr.includes('"controller started"')) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      child.once("exit", () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    child.kill("SIGTERM");
    const status = await exited;
    const cache = codeCacheFile(`${outdir}/errand.cjs`, bundleId);
    // Without the cache errand works the same, only starts slower: say why, do not fail the build.
    if (!started || status !== 0 || !existsSync(cache)) {
      process.stderr.write(
        `bundle-cli: no code cache recorded (errand run ${started ? `exited with ${status}` : "did not start"}); errand starts without it, slower.\n${stderr}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
