import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { CHECKOUT_FOLLOW_UP_PROMPT_TEMPLATE } from "../../src/engines/follow-up-prompt.js";

const DEMO_AGENT = resolve(import.meta.dirname, "../../demo/agent.mjs");
const run = promisify(execFile);
const GIT_ENV = { PATH: process.env.PATH ?? "", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: { ...GIT_ENV, HOME: cwd }, encoding: "utf8" }).trim();
}

/** A repository with one commit on `branch`, with the identity the controller's checkout sets. */
function repository(dir: string, branch = "errand/7-fix-it"): string {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", branch);
  git(dir, "config", "user.name", "Errand Demo");
  git(dir, "config", "user.email", "errand-demo@example.invalid");
  writeFileSync(join(dir, "README.md"), "# shop\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "initial");
  return dir;
}

/** Runs the agent in `workspace` as a command engine; resolves with its result file and progress lines. */
async function agentIn(workspace: string, prompt = "Fix ticket 7.") {
  const dir = tempDir("errand-demo-agent-");
  const files = { ticket: join(dir, "ticket.json"), result: join(dir, "result.json"), prompt: join(dir, "prompt.md") };
  writeFileSync(files.ticket, JSON.stringify({ id: "7", title: "Fix it", repo_url: "http://127.0.0.1:1/acme/shop" }));
  writeFileSync(files.prompt, prompt);
  const env = {
    ...GIT_ENV,
    HOME: dir,
    DEMO_AGENT_DELAY_MS: "0",
    ERRAND_TICKET_FILE: files.ticket,
    ERRAND_RESULT_FILE: files.result,
    ERRAND_PROMPT_FILE: files.prompt,
  };
  const { stdout } = await run(process.execPath, [DEMO_AGENT], { cwd: workspace, env });
  const progress = stdout.split("\n").flatMap((l) => (l.startsWith("::progress:: ") ? [l.slice(13)] : []));
  return { result: JSON.parse(readFileSync(files.result, "utf8")), progress };
}

describe("demo agent in a checkout", () => {
  test("commits a note for the ticket and leaves the push and the pull request to the controller", async () => {
    const workspace = repository(tempDir("errand-demo-checkout-"));
    const { result, progress } = await agentIn(workspace);
    expect(git(workspace, "log", "--format=%s")).toBe("Fix it\ninitial");
    expect(readFileSync(join(workspace, "ERRAND-DEMO.md"), "utf8")).toBe("## 7: Fix it\n\nThe demo agent's change.\n");
    expect(result).toMatchObject({ success: true, pull_request_url: "" });
    expect(progress.at(-1)).toMatch(/^committed [0-9a-f]+ on errand\/7-fix-it: Fix it$/);
  });

  test("a follow-up: one commit that addresses the review comments of its prompt", async () => {
    const workspace = repository(tempDir("errand-demo-checkout-"));
    const prompt = CHECKOUT_FOLLOW_UP_PROMPT_TEMPLATE.replace(
      "{{review_comments}}",
      "- alice on ERRAND-DEMO.md line 3: @errand say why",
    );
    const { result, progress } = await agentIn(workspace, prompt);
    expect(git(workspace, "log", "--format=%s")).toBe("Address the review: say why\ninitial");
    expect(readFileSync(join(workspace, "ERRAND-DEMO.md"), "utf8")).toContain(
      "- addressed: alice on ERRAND-DEMO.md line 3: @errand say why",
    );
    expect(result.summary).toContain("Addressed 1 review comment(s)");
    expect(progress[0]).toBe("reading the review: alice on ERRAND-DEMO.md line 3: @errand say why");
  });

  // `npm start` in a clone of errand puts the workspaces inside that clone: the agent must not commit to it.
  test("a workspace inside another repository, without a .git of its own, commits nothing", async () => {
    const outer = repository(tempDir("errand-demo-outer-"), "main");
    const workspace = join(outer, ".errand-demo/.errand/workspaces/run_1");
    mkdirSync(workspace, { recursive: true });
    const { result } = await agentIn(workspace);
    expect(git(outer, "log", "--format=%s")).toBe("initial");
    expect(git(outer, "status", "--porcelain")).toBe("");
    expect(result.pull_request_url).toMatch(/^http:\/\/127\.0\.0\.1:1\/acme\/shop\/pull\/\d+$/);
  });
});
