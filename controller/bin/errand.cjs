#!/usr/bin/env node
// Committed as plain JavaScript with its executable bit, so the `errand` link
// works right after `npm install` whatever the build does to file modes.
// CommonJS, so that no ES module loader starts before the first line runs.
// dist/bin/launch.cjs (src/cli/launch.ts) runs dist/bin/errand.cjs, the
// bundle of dist/cli/bin.js, through V8's code cache (scripts/bundle-cli.mjs).
const launcher = require("node:path").join(__dirname, "../dist/bin/launch.cjs");
if (!require("node:fs").existsSync(launcher)) {
  process.stderr.write(
    `errand: ${launcher} is missing: the controller is not built; run \`npm run build -w @errand/controller\` in the repository\n`,
  );
  process.exit(1);
}
require(launcher);
