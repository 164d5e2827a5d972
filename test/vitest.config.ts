import { defineConfig } from "vitest/config";
import { projectTmpDir } from "./support/tmp-guard.js";

export default defineConfig({
  test: {
    name: "repo",
    // A temp directory of the project's own, checked for leftovers at the end (test/support/tmp-guard.ts).
    env: { TMPDIR: projectTmpDir("repo") },
    globalSetup: ["./support/tmp-guard.ts"],
    include: ["*.test.ts", "deploy/*.test.ts", "registry/*.test.ts"],
  },
});
