import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./test/support/longest-first.js";

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
    // The longest files first, whatever their project, so that none of them is left to run alone at the end.
    sequence: { sequencer: LongestFirstSequencer },
  },
});
