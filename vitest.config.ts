import { defineConfig } from "vitest/config";

// Each package keeps its own vitest.config.ts; the root runs them all as
// projects so `npm test` is one command.
export default defineConfig({
  test: {
    // Globs, so a package's tests join the run as soon as its config exists.
    projects: ["{sdk,proto,controller,cli,test}/vitest.config.ts", "examples/*/vitest.config.ts", "channels/*/vitest.config.ts"],
  },
});
