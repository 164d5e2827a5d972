import type { TaskResult, Ticket } from "@errand/channel-sdk";
import type { CheckoutBase } from "./clone-checkout.js";
import { finishBranch } from "./finish-branch.js";
import type { GitAskpass } from "./git-askpass.js";
import { GitCommandError, type GitRunner } from "./git-runner.js";
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
 * After a successful engine exit on the local backend: the branch's new
 * commits are pushed by the controller, then the branch is finished as on
 * every backend ({@link finishBranch}). An agent that reported its own pull
 * request gets no push. Throws a RepositoryError (the run's reason) when push
 * or pull request fail.
 */
export async function pushAndOpen(request: FinishRequest): Promise<TaskResult> {
  const { git, workspace, note, branch } = request;
  return finishBranch({ ...request, base: request.base.baseBranch }, async () => {
    const commits = Number((await git(["rev-list", "--count", `${request.base.baseCommit}..HEAD`], workspace)).trim());
    if (!(commits > 0)) return "no-changes";
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
        { cause: error },
      );
    }
    return "pushed";
  });
}
