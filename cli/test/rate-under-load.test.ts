import { type ChildProcess, spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFixture } from "./helpers/run-fixture.js";

// A busy CI runner: one process spinning on every core while the check runs,
// so the plugin, the sink and the host all wait for the CPU.
describe("target.rate on a saturated CPU", () => {
  const spinners: ChildProcess[] = [];
  beforeAll(async () => {
    for (let i = 0; i < availableParallelism(); i++) {
      const child = spawn(process.execPath, ["-e", "process.stdout.write('spinning\\n'); for (;;) {}"], {
        stdio: ["ignore", "pipe", "ignore"],
      });
      spinners.push(child);
      await new Promise((resolve) => child.stdout!.once("data", resolve));
    }
  });
  afterAll(() => {
    for (const child of spinners) child.kill("SIGKILL");
  });

  it("passes a plugin that keeps its declared rate, run after run", async () => {
    for (let run = 0; run < 3; run++) {
      const result = (await runFixture("good.mjs", { only: ["target.rate"] })).get("target.rate")!;
      expect(result.status, `run ${run + 1}: ${result.actual}`).toBe("passed");
    }
  }, 120_000);

  it("still fails a plugin that does not rate-limit", async () => {
    const result = (await runFixture("broken/ignores-rate.mjs", { only: ["target.rate"] })).get("target.rate")!;
    expect(result.status).toBe("failed");
    expect(result.actual).toMatch(/arrived \d+ ms (after the burst started|apart)/);
  }, 60_000);
});
