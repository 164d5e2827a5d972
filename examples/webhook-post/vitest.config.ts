import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "example-webhook-post",
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
  },
});
