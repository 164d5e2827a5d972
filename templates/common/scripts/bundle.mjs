// `npm run build`, after tsc: bundles the plugin for a fast start (see src/bin.ts).
//
// - src/plugin.ts and everything it imports (the SDK, @grpc/grpc-js, zod, …)
//   become one CommonJS file, dist/plugin.cjs: only a script can be compiled
//   with a code cache (node:vm) on Node 20, and one file spares resolving and
//   loading a hundred modules.
// - The code cache is recorded by starting the plugin once through the SDK's
//   host (ERRAND_PLUGIN_CODE_CACHE=write): it then holds the functions a start
//   and a Handshake compile, not only the top level. A build without it still
//   works, and starts slower.
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { connectChannel, silentLogger } from "@errand/channel-sdk/host";
import { build } from "esbuild";

// The package to bundle: the folder above this script, or the one named on the command line (the repository's example uses this script too).
const root = process.argv[2] ? `${resolve(process.argv[2])}/` : fileURLToPath(new URL("..", import.meta.url));
const bundle = `${root}dist/plugin.cjs`;
const id = randomBytes(8).toString("hex");

// The caches of earlier builds too: npm would publish them, and no bundle of theirs exists any more.
const earlier = readdirSync(`${root}dist`, { withFileTypes: true }).filter((f) =>
  /^plugin\.cjs\.[0-9a-f]+\.cache$/.test(f.name),
);
for (const old of [bundle, `${bundle}.map`, ...earlier.map((f) => `${root}dist/${f.name}`)])
  rmSync(old, { force: true });
await build({
  entryPoints: [`${root}src/plugin.ts`],
  outfile: bundle,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  // bin.ts passes the bundle's URL as __importMetaUrl; dist/ keeps src/'s depth, so ../package.json still resolves.
  define: { "import.meta.url": "__importMetaUrl" },
  // A script compiled by node:vm cannot import(): code loaded on demand (the SDK's TLS, HTTP client) becomes require().
  supported: { "dynamic-import": false },
  // Less to parse; identifiers stay, so stack traces still name functions.
  minifyWhitespace: true,
  minifySyntax: true,
  // Mappings only: NODE_OPTIONS=--enable-source-maps maps stack traces back to src/ (the sources stay out of the package).
  sourcemap: "linked",
  sourcesContent: false,
  footer: { js: `//# errand-bundle-id=${id}` },
  logLevel: "warning",
});

const cache = `${bundle}.${id}.cache`;
try {
  const channel = await connectChannel({
    command: process.execPath,
    args: [`${root}dist/bin.js`],
    env: { ERRAND_PLUGIN_CODE_CACHE: "write" },
    logger: silentLogger,
  });
  await channel.close();
} catch (error) {
  // A bundle that does not start fails the build, with the plugin's own explanation.
  if (error?.code === "ERR_PLUGIN_START" || error?.code === "ERR_PLUGIN_EXITED") {
    process.stderr.write(`bundle: dist/plugin.cjs does not start: ${error.message}\n`);
    process.exit(1);
  }
  // Otherwise the channel answered, refusing the empty config of this start: it compiled its start and Handshake all the same.
}
if (!existsSync(cache))
  process.stderr.write("bundle: no code cache was recorded; the plugin works without it, but starts slower\n");
