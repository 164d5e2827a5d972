import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { codeCacheMode, runBundle } from "./code-cache.js";
import { limitHeapGrowth } from "./heap-growth.js";

// What bin/errand.cjs runs (bundled by scripts/bundle-cli.mjs into dist/bin/launch.cjs, beside errand.cjs).
// The heap flag is set before the bundle is compiled: V8 accepts a code cache only under the flags it was made with.
limitHeapGrowth();
let mode: ReturnType<typeof codeCacheMode>;
try {
  mode = codeCacheMode(process.env.ERRAND_CODE_CACHE);
} catch (error) {
  process.stderr.write(`errand: ${(error as Error).message}\n`);
  process.exit(2);
}
const bundle = fileURLToPath(new URL("errand.cjs", import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write(
    `errand: ${bundle} is missing: the controller is not built; run \`npm run build -w @errand/controller\` in the repository\n`,
  );
  process.exit(1);
}
runBundle(bundle, mode);
