import { defineConfig } from "vitest/config";

// Not a test project (the root config does not list it): `npm run bench:channels`
// runs the burst and digest benchmarks through vitest only so that they can reuse the
// packages' TypeScript fakes.
export default defineConfig({
  test: {
    name: "channels-bench",
    root: import.meta.dirname,
    include: ["burst.bench.ts", "digest.bench.ts"],
    // One bench at a time: each measures against the platform's pace.
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 30_000,
  },
});
