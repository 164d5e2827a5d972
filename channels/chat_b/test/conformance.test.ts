import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../../../cli/bin/channel.js", import.meta.url));
const PACKAGE = fileURLToPath(new URL("..", import.meta.url));

interface Report {
  plugin: { name: string };
  summary: { passed: number; failed: number; skipped: number };
  checks: { id: string; status: string; actual?: string; fix?: string }[];
}

describe("channel test (the conformance runner) against this package's bin and errand-conformance.json", () => {
  it("passes every check, the target checks included", async () => {
    const run = await promisify(execFile)(process.execPath, [CLI, "test", PACKAGE, "--json", "--concurrency", "3"], {
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => error);
    const report = JSON.parse(run.stdout ?? "{}") as Report;
    const failed = report.checks?.filter((c) => c.status !== "passed") ?? [];
    expect(failed, run.stderr).toEqual([]);
    expect(report.summary.passed).toBeGreaterThanOrEqual(22);
    expect(report.checks.map((c) => c.id)).toContain("target.rate");
  }, 70_000);
});
