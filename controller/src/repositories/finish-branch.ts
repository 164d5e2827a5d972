import type { TaskResult, Ticket } from "@errand/channel-sdk";
import { pullRequestBody, pullRequestTitle } from "./pull-request-body.js";
import { openPullRequest } from "./pull-requests.js";
import type { CodehostARepositoriesConfig } from "./repositories-schema.js";
import type { RepositoryToken } from "./repository-token.js";

/** A succeeded run's branch, on either backend, ready to be finished. */
export interface BranchFinish {
  config: { codehostA: CodehostARepositoriesConfig };
  token: RepositoryToken;
  owner: string;
  repo: string;
  ticket: Ticket;
  runId: string;
  branch: string;
  /** The branch the pull request goes into; undefined: the repository's default branch. */
  base: string | undefined;
  /** The run's result, already scrubbed: the pull request's body quotes it. */
  result: TaskResult;
  note: (line: string) => void;
}

/**
 * What became of the branch: its new commits were pushed, or there were
 * none. Throws a RepositoryError (the run's reason) when the push failed.
 */
export type PushBranch = () => Promise<"pushed" | "no-changes">;

/**
 * The one ending of a successful run's branch, shared by the local backend
 * (the controller pushes) and the Kubernetes one (the pod pushed): a pull
 * request the agent reported is kept as the run's; otherwise, once pushed, a
 * pull request is opened (or the branch's open one found: a follow-up's);
 * no new commits end the run as `pull_requests.when_no_changes` says.
 * Throws a RepositoryError (the run's reason) when push or pull request fail.
 */
export async function finishBranch(request: BranchFinish, push: PushBranch): Promise<TaskResult> {
  const { result, note, branch } = request;
  if (result.pullRequestUrl !== "") {
    note(`the agent opened ${result.pullRequestUrl}: recorded, none opened by the controller`);
    return result;
  }
  if ((await push()) === "no-changes") return noChanges(request);
  const url = await openPullRequest({
    baseUrl: request.config.codehostA.api_base_url,
    token: await request.token.token(),
    owner: request.owner,
    repo: request.repo,
    head: branch,
    base: request.base,
    title: pullRequestTitle(request.ticket),
    body: pullRequestBody(request.ticket, request.runId, result),
    draft: request.config.codehostA.pull_requests.draft,
  });
  note(`pull request: ${url}`);
  return { ...result, pullRequestUrl: url };
}

function noChanges(request: BranchFinish): TaskResult {
  const { result } = request;
  request.note("the agent made no commit");
  if (request.config.codehostA.pull_requests.when_no_changes === "fail")
    return { ...result, success: false, failureReason: "no changes" };
  const said = result.summary.trim();
  return { ...result, summary: said === "" ? "no changes" : `no changes\n\n${said}` };
}
