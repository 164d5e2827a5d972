import { execFile } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";

const run = promisify(execFile);
const DEMO = fileURLToPath(new URL("../../dist/demo/run-demo.js", import.meta.url));
const ERRAND = fileURLToPath(new URL("../../bin/errand.cjs", import.meta.url));

/** A PATH with node alone: no git, as on a machine without it. */
function pathWithoutGit(): string {
  const bin = join(tempDir("errand-demo-path-"), "bin");
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, "node"));
  return bin;
}

// The README's first command ends in this program (npm start: build, then the demo); npm test builds first.
// The default demo, with git, is in demo-loop.test.ts.
describe("the demo (npm start)", () => {
  it("without git: says so, runs a signed ticket through the controller, tells both channels, prints the timeline and commands that work", async () => {
    const cwd = tempDir("errand-demo-");
    const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", PATH: pathWithoutGit() };
    const { stdout } = await run(process.execPath, [DEMO], { cwd, env, timeout: 60_000 });
    expect(stdout).toContain("No pull request loop: git is not installed (or not on PATH). Install git");
    expect(stdout).toMatch(
      /ticket {6}POST \/webhooks\/generic {2}DEMO-\d+ "Fix the flaky login test" {2}→ 200 \(stored\)/,
    );
    const states = [...stdout.matchAll(/^\d\d:\d\d:\d\d\.\d{3} {2}(\w+)/gm)].map((m) => m[1]);
    expect(states).toEqual(["Queued", "Running", "Succeeded"]);
    expect(stdout).toMatch(/chat_a ▸ Agent started working on: DEMO-\d+/);
    expect(stdout).toMatch(/webhook_post ▸ ✅ Completed DEMO-\d+/);
    expect(stdout).toContain("✔ run succeeded  https://github.com/acme/shop/pull/");
    // Every step of the agent reached both channels (progress_per_minute: 60 lets them through), and the timeline
    // reads in causal order: Running, each channel's start, its steps, Succeeded, each channel's completion.
    const lines = stdout.split("\n");
    const at = (pattern: RegExp) => {
      const index = lines.findIndex((l) => pattern.test(l));
      expect(index, `a line matching ${pattern}`).toBeGreaterThanOrEqual(0);
      return index;
    };
    const steps = [
      "cloning https://github.com/acme/shop",
      "reading the code around the problem",
      "making the change: Fix the flaky login test",
      "running the tests (all green)",
      "opening a pull request",
    ];
    for (const target of ["chat_a", "webhook_post"]) {
      const order = [
        at(/^\d\d:\d\d:\d\d\.\d{3} {2}Running/),
        at(new RegExp(`${target} ▸ Agent started working on`)),
        ...steps.map((step) => at(new RegExp(`${target} ▸ .*: ${step.replace(/[()]/g, "\\$&")}$`))),
        at(/^\d\d:\d\d:\d\d\.\d{3} {2}Succeeded/),
        at(new RegExp(`${target} ▸ .*Completed`)),
      ];
      expect(order, target).toEqual([...order].sort((a, b) => a - b));
    }
    // The "Inspect it" commands name a real run in the demo's store.
    const runId = /errand runs show (run_\w+) --config \.errand-demo\/errand\.yaml/.exec(stdout)?.[1];
    expect(runId).toBeDefined();
    const shown = await run(
      process.execPath,
      [ERRAND, "runs", "show", runId as string, "--config", ".errand-demo/errand.yaml", "--json"],
      { cwd, env, timeout: 30_000 },
    );
    expect(JSON.parse(shown.stdout)).toMatchObject({ run: { id: runId, state: "Succeeded" } });
  }, 90_000);

  it("--approval: the run waits, the channels are told how to approve it, the demo approves it with the CLI", async () => {
    const cwd = tempDir("errand-demo-");
    const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
    const { stdout } = await run(process.execPath, [DEMO, "--approval"], { cwd, env, timeout: 60_000 });
    const states = [...stdout.matchAll(/^\d\d:\d\d:\d\d\.\d{3} {2}(\w+)/gm)].map((m) => m[1]);
    expect(states).toEqual(["AwaitingApproval", "Queued", "Running", "Succeeded"]);
    const runId = /errand runs approve (run_\w+) --config \.errand-demo\/errand\.yaml/.exec(stdout)?.[1];
    expect(runId).toBeDefined();
    expect(stdout).toMatch(new RegExp(`chat_a ▸ .*Awaiting approval: run ${runId}.*console/runs/${runId}`));
    expect(stdout).toMatch(/Queued {5}approved by cli .*: approved in the demo/);
    expect(stdout).toContain("✔ run succeeded");
  }, 90_000);
});
