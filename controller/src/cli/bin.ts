import { limitHeapGrowth } from "./heap-growth.js";

// Before the commands' modules load, so that the first limits V8 computes already use it.
limitHeapGrowth();
const { createProgram } = await import("./program.js");

// Commander exits on usage errors itself; anything else that escapes is a bug.
createProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`errand: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
