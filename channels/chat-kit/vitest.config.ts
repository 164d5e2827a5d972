import { defineConfig } from "vitest/config";
import { projectTmpDir } from "../../test/support/tmp-guard.js";

export default defineConfig({
  test: {
    name: "chat-kit",
    // A temp directory of the project's own, checked for leftovers at the end (test/support/tmp-guard.ts).
    env: { TMPDIR: projectTmpDir("chat-kit") },
    globalSetup: ["../../test/support/tmp-guard.ts"],
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
