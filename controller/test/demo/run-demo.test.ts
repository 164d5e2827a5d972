import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";

const run = promisify(execFile);
const DEMO = fileURLToPath(new URL("../../dist/demo/run-demo.js", import.meta.url));
const ERRAND = fileURLToPath(new URL("../../bin/errand.cjs", import.meta.url));

const BRANCH = "errand/1-fix-the-flaky-login-test";
const STATE = /^\d\d:\d\d:\d\d\.\d{3} {2}(\w+)/;

/** Asserts that the lines matching `patterns` appear, each after the one before; returns their indexes. */
function inOrder(lines: string[], patterns: RegExp[]): number[] {
  const found: number[] = [];
  for (const pattern of patterns) {
    const index = lines.findIndex((l, i) => i > (found.at(-1) ?? -1) && pattern.test(l));
    expect(index, `a line matching ${pattern} after line ${found.at(-1)}`).toBeGreaterThanOrEqual(0);
    found.push(index);
  }
  return found;
}

/** A PATH with node alone: no git, as on a machine without it. */
function pathWithoutGit(): string {
  const bin = join(tempDir("errand-demo-path-"), "bin");
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, "node"));
  return bin;
}

// The README's first command ends in this program (npm start: build, then the demo); npm test builds first.
// One file, so that the demos run one after the other: a loaded machine coalesces progress lines (channel-lanes.ts).
describe("the demo (npm start)", () => {
  it("with git, the whole loop against the local code host: issue labelled → the agent commits → pull request → review comment → follow-up on the same branch; the demo token is never shown", async () => {
    const cwd = tempDir("errand-demo-");
    const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
    const { stdout, stderr } = await run(process.execPath, [DEMO], { cwd, env, timeout: 60_000 });
    const lines = stdout.split("\n");
    expect(lines.map((l) => STATE.exec(l)?.[1]).filter(Boolean)).toEqual([
      "Queued",
      "Running",
      "Succeeded",
      "Queued",
      "Running",
      "Succeeded",
    ]);
    const pr = /^pull request (http:\/\/127\.0\.0\.1:\d+\/acme\/shop\/pull\/1) {2}(\S+) → main \(draft\)$/m.exec(
      stdout,
    );
    expect(pr?.[2]).toBe(BRANCH);
    const prUrl = pr?.[1] as string;
    const first = /committed (\w+) on errand\/1-fix-the-flaky-login-test: Fix the flaky login test$/;
    const second = /committed (\w+) on errand\/1-fix-the-flaky-login-test: Address the review: please say/;
    // In causal order, each channel told of each run: the issue, the run, its commit, the pull request it led to,
    // the review comment, the follow-up run and its commit, then the branch with both commits. (The first progress
    // line of a run may be coalesced away on a loaded machine, so the review's reaches one channel at least.)
    for (const target of ["chat_a", "webhook_post"]) {
      inOrder(lines, [
        /^code host {3}http:\/\/127\.0\.0\.1:\d+\/acme\/shop \(git http-backend, Basic auth\)/,
        /^issue {7}#1 "Fix the flaky login test" labelled errand {2}→ POST \/webhooks\/codehost-a 200 accepted$/,
        /^\S+ {2}Queued {5}accepted from codehost_a$/,
        /^\S+ {2}Running/,
        new RegExp(`${target} ▸ Agent started working on: #1 Fix the flaky login test`),
        new RegExp(`${target} ▸ .*${first.source}`),
        new RegExp(`^\\S+ {2}Succeeded  succeeded: ${prUrl}$`),
        new RegExp(`${target} ▸ .*Completed.*${prUrl}`),
        /^pull request /,
        /^review {6}demo-reviewer on ERRAND-DEMO\.md line 3: "@errand .*" {2}→ POST \/webhooks\/codehost-a 200 accepted$/,
        new RegExp(`^\\S+ {2}Queued {5}follow-up of run_\\w+: review comment by demo-reviewer on ${prUrl}$`),
        /^\S+ {2}Running/,
        new RegExp(`${target} ▸ Agent started working on: #1`),
        /(chat_a|webhook_post) ▸ .*reading the review: demo-reviewer on ERRAND-DEMO.md line 3: @errand/,
        new RegExp(`${target} ▸ .*${second.source}`),
        new RegExp(`^\\S+ {2}Succeeded  succeeded: ${prUrl}$`),
        new RegExp(`${target} ▸ .*Completed.*${prUrl}`),
        new RegExp(`^branch {6}${BRANCH} on the git server:$`),
      ]);
    }
    // The branch log the demo prints is the bare repository's, which git itself reads the same.
    const commits = [new RegExp(first.source, "m").exec(stdout)?.[1], second.exec(stdout)?.[1]];
    const bare = join(cwd, ".errand-demo/code-host/acme/shop.git");
    const log = execFileSync("git", ["log", "--format=%h %s", BRANCH], { cwd: bare, encoding: "utf8" }).trim();
    expect(log.split("\n").map((l) => l.split(" ")[0])).toEqual([commits[1], commits[0], expect.any(String)]);
    expect(log).toMatch(
      /Address the review: please say in the note what the change does\n\w+ Fix the flaky login test\n\w+ initial$/,
    );
    expect(stdout).toContain(log.replaceAll("\n", "\n              "));
    expect(stdout).toContain(`✔ run succeeded  ${prUrl}`);
    expect(stdout).toMatch(/^comment {5}on issue #1: Errand finished: Succeeded/m);

    // The token both stand-ins accept is made up at start and kept in the secrets folder only.
    const token = readFileSync(join(cwd, ".errand-demo/secrets/demo-repo-token"), "utf8").trim();
    expect(token).toMatch(/^demo_[0-9a-f]{40}$/);
    expect(stdout).not.toContain(token);
    expect(stderr).not.toContain(token);
    expect(readFileSync(join(cwd, ".errand-demo/controller.log"), "utf8")).not.toContain(token);

    // The chain of runs is there to inspect with the commands the demo prints.
    const runId = /errand runs show (run_\w+) --config \.errand-demo\/errand\.yaml/.exec(stdout)?.[1];
    const shown = await run(
      process.execPath,
      [ERRAND, "runs", "show", runId as string, "--config", ".errand-demo/errand.yaml", "--json"],
      { cwd, env, timeout: 30_000 },
    );
    expect(JSON.parse(shown.stdout)).toMatchObject({ run: { id: runId, state: "Succeeded", branch: BRANCH } });

    // Run again in the same folder: the store keeps the first demo's runs, so the next issue has a number of its own.
    const again = await run(process.execPath, [DEMO], { cwd, env, timeout: 60_000 });
    expect(again.stdout).toMatch(/^issue {7}#2 "Fix the flaky login test" labelled errand {2}→ .* 200 accepted$/m);
    expect(again.stdout.split("\n").filter((l) => STATE.test(l))).toHaveLength(6);
    expect(again.stdout).toMatch(/^branch {6}errand\/2-fix-the-flaky-login-test on the git server:$/m);
  }, 120_000);
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
