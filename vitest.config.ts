import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Each package keeps its own vitest.config.ts; the root runs them all as
// projects so `npm test` is one command.
export default defineConfig({
  test: {
    // Globs, so a package's tests join the run as soon as its config exists.
    projects: [
      "{sdk,proto,controller,cli,test}/vitest.config.ts",
      "examples/*/vitest.config.ts",
      "channels/*/vitest.config.ts",
    ],
    // Vitest's default (one worker less than the CPUs) runs test files one at a time on a 2-core runner, where most
    // files wait on processes, sockets and timers rather than compute: two at a time keeps the suite within budget there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
