import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { TaskResult, Ticket } from "@errand/channel-sdk";
import { expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { createCheckoutWorkspace } from "../../src/repositories/checkout-workspace.js";
import { repositoriesConfig } from "../../src/repositories/repositories-schema.js";
import { createStaticToken } from "../../src/repositories/repository-token.js";
import { REPO, startHost, TOKEN } from "./repo-setup.js";

const done: TaskResult = { success: true, summary: "Done.", pullRequestUrl: "", failureReason: "" };

/** What an agent does in the checkout: one more commit. */
function commit(workspace: string, line: string): void {
  const env = { PATH: process.env.PATH, HOME: workspace, GIT_CONFIG_NOSYSTEM: "1" };
  execFileSync("sh", ["-c", `printf '%s\\n' "${line}" >> README.md && git commit -qam "${line}"`], {
    cwd: workspace,
    env,
  });
}

it("a run on an existing branch (a follow-up) clones that branch, pushes to it and keeps its pull request", async () => {
  const host = await startHost();
  const dir = tempDir("errand-existing-branch-");
  const parsed = repositoriesConfig.parse({ codehost_a: { api_base_url: host.api.url, token_secret: "t" } });
  const config = { ...parsed, codehostA: parsed.codehostA as NonNullable<typeof parsed.codehostA> };
  const ticket: Ticket = {
    id: "7",
    title: "Add a line",
    description: "",
    ticketType: "issue",
    repoUrl: `${host.git.url}/${REPO}`,
    externalUrl: "",
    labels: [],
    source: "generic",
  };
  const runOn = async (runId: string, existing: boolean, line: string) => {
    const workspace = join(dir, runId);
    mkdirSync(workspace);
    const run = createCheckoutWorkspace({
      config,
      token: createStaticToken(TOKEN),
      ticket,
      runId,
      branch: { branch: "errand/7-add-a-line", existing },
      credentialsDir: join(dir, `${runId}.git-credentials`),
      tokenEnv: [],
      secretValues: () => [TOKEN],
    });
    await run.prepare(workspace, () => {});
    commit(workspace, line);
    return run.finish(workspace, done, () => {});
  };
  const first = await runOn("run_first", false, "first change");
  const second = await runOn("run_second", true, "second change");
  expect(second.success).toBe(true);
  expect(second.pullRequestUrl).toBe(first.pullRequestUrl);
  expect(host.pulls.pulls).toHaveLength(1);
  expect(host.pulls.pulls[0]?.base).toBe("main");
  expect(host.git.log(REPO, "errand/7-add-a-line")).toEqual(["second change", "first change", "initial"]);
  // A new run (a retry) whose branch is on the remote already adds to it too, rather than having its push refused.
  const retried = await runOn("run_retry", false, "retried change");
  expect(retried).toMatchObject({ success: true, pullRequestUrl: first.pullRequestUrl });
  expect(host.pulls.pulls).toHaveLength(1);
  expect(host.git.log(REPO, "errand/7-add-a-line")).toEqual([
    "retried change",
    "second change",
    "first change",
    "initial",
  ]);
});
