// Bundles the `errand` command (dist/cli/bin.js, compiled by tsc) into
// dist/bin/: Node 20 has no module compile cache, and resolving and compiling
// the ~250 ES modules on the way to a listening webhook server (zod alone is
// 95) took more time than running them. One bundle with code-split chunks
// loads in a fraction of that (docs/benchmarks.md, "Start-up").
//
// Only the packages below are bundled: pure JavaScript that every start
// needs. Everything else stays an import of the installed package: native
// addons, drivers and vendor SDKs loaded on demand, and Errand's own packages,
// whose classes must stay one copy (errors are matched with instanceof).
// The output keeps dist/cli's depth, so paths relative to import.meta.url
// (../../package.json) still find the package's files.
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const BUNDLED = new Set(["commander", "zod", "yaml", "prom-client", "tdigest", "bintrees", "@opentelemetry/api"]);
const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = `${root}dist/bin`;

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
      if (args.path.startsWith("node:") || !BUNDLED.has(packageOf(args.path))) return { path: args.path, external: true };
      return undefined;
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { errand: `${root}dist/cli/bin.js` },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  // Less to parse: 10-15 % less CPU to a listening server. Identifiers stay, so stack traces still name functions.
  minifyWhitespace: true,
  minifySyntax: true,
  // Built-in modules imported without the node: prefix (by bundled packages) stay external too.
  plugins: [externalUnlessBundled],
  // prom-client is CommonJS: its require() calls of Node's modules need a require in an ES module.
  banner: { js: 'import { createRequire as __errandRequire } from "node:module"; const require = __errandRequire(import.meta.url);' },
  logLevel: "warning",
  legalComments: "linked",
});
