import { defineConfig } from "vitest/config";

// Not a test project (the root config does not list it): `npm run bench:channels`
// runs the burst benchmark through vitest only so that it can reuse the
// packages' TypeScript fakes.
export default defineConfig({
  test: {
    name: "channels-bench",
    root: import.meta.dirname,
    include: ["burst.bench.ts"],
    testTimeout: 120_000,
    hookTimeout: 30_000,
  },
});
