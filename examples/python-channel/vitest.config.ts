import { defineConfig } from "vitest/config";
import { projectTmpDir } from "../../test/support/tmp-guard.js";

export default defineConfig({
  test: {
    name: "example-python-channel",
    // A temp directory of the project's own, checked for leftovers at the end (test/support/tmp-guard.ts).
    env: { TMPDIR: projectTmpDir("example-python-channel") },
    globalSetup: ["../../test/support/tmp-guard.ts"],
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
