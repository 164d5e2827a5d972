import { limitHeapGrowth } from "./heap-growth.js";

// Before the commands' modules load, so that the first limits V8 computes already use it.
limitHeapGrowth();

// No top-level await: this module is also the entry of the CommonJS bundle that bin/errand.cjs runs
// (scripts/bundle-cli.mjs). Commander exits on usage errors itself; anything else that escapes is a bug.
import("./program.js")
  .then(({ createProgram }) => createProgram().parseAsync(process.argv))
  .catch((error: unknown) => {
    process.stderr.write(`errand: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
