import { defineConfig } from "vitest/config";

// Each package keeps its own vitest.config.ts; the root runs them all as
// projects so `npm test` is one command.
export default defineConfig({
  test: {
    projects: [
      "sdk/vitest.config.ts",
      "proto/vitest.config.ts",
      "examples/*/vitest.config.ts",
      "channels/*/vitest.config.ts",
      "controller/vitest.config.ts",
      "cli/vitest.config.ts",
    ],
  },
});
