import type { TaskResult, Ticket } from "@errand/channel-sdk";
import type { CheckoutBase } from "./clone-checkout.js";
import type { GitAskpass } from "./git-askpass.js";
import { GitCommandError, type GitRunner } from "./git-runner.js";
import { pullRequestBody, pullRequestTitle } from "./pull-request-body.js";
import { openPullRequest } from "./pull-requests.js";
import type { CodehostARepositoriesConfig } from "./repositories-schema.js";
import { RepositoryError } from "./repository-error.js";
import type { RepositoryToken } from "./repository-token.js";

/** A succeeded run's checkout, ready to be finished. */
export interface FinishRequest {
  git: GitRunner;
  askpass: GitAskpass;
  base: CheckoutBase;
  owner: string;
  repo: string;
  config: { codehostA: CodehostARepositoriesConfig };
  token: RepositoryToken;
  ticket: Ticket;
  runId: string;
  workspace: string;
  branch: string;
  result: TaskResult;
  note: (line: string) => void;
}

/**
 * After a successful engine exit: a pull request the agent reported is
 * kept as the run's; otherwise new commits are pushed and a pull request is
 * opened (or the branch's open one found); no new commits end the run as
 * `pull_requests.when_no_changes` says. Throws a RepositoryError (the run's
 * reason) when push or pull request fail.
 */
export async function pushAndOpen(request: FinishRequest): Promise<TaskResult> {
  const { git, workspace, result, note, branch } = request;
  if (result.pullRequestUrl !== "") {
    note(`the agent opened ${result.pullRequestUrl}: recorded, none opened by the controller`);
    return result;
  }
  const commits = Number((await git(["rev-list", "--count", `${request.base.baseCommit}..HEAD`], workspace)).trim());
  if (!(commits > 0)) return noChanges(request);
  // The token git reads is current: an App's may have been refreshed while the agent worked.
  request.askpass.setToken(await request.token.token());
  note(`pushing ${commits} new commit(s) to ${branch}`);
  try {
    await git(["push", "--quiet", "origin", `HEAD:refs/heads/${branch}`], workspace);
  } catch (error) {
    const detail =
      error instanceof GitCommandError ? error.message.replace(/^git push exited with \d+: /, "") : String(error);
    throw new RepositoryError(
      "push_failed",
      `push failed: ${detail} (branch ${branch} of ${request.owner}/${request.repo})`,
      {
        cause: error,
      },
    );
  }
  const url = await openPullRequest({
    baseUrl: request.config.codehostA.api_base_url,
    token: await request.token.token(),
    owner: request.owner,
    repo: request.repo,
    head: branch,
    base: request.base.baseBranch,
    title: pullRequestTitle(request.ticket),
    body: pullRequestBody(request.ticket, request.runId, result),
    draft: request.config.codehostA.pull_requests.draft,
  });
  note(`pull request: ${url}`);
  return { ...result, pullRequestUrl: url };
}

function noChanges(request: FinishRequest): TaskResult {
  const { result } = request;
  request.note("the agent made no commit");
  if (request.config.codehostA.pull_requests.when_no_changes === "fail")
    return { ...result, success: false, failureReason: "no changes" };
  const said = result.summary.trim();
  return { ...result, summary: said === "" ? "no changes" : `no changes\n\n${said}` };
}
