import { Octokit } from "@octokit/rest";
import { RepositoryError } from "./repository-error.js";

/** What {@link openPullRequest} needs. */
export interface PullRequestRequest {
  /** `repositories.codehost_a.api_base_url`. */
  baseUrl: string;
  token: string;
  owner: string;
  repo: string;
  head: string;
  /** The branch it goes into; undefined: the repository's default branch, asked of the code host. */
  base: string | undefined;
  title: string;
  body: string;
  draft: boolean;
}

/**
 * The open pull request of `head`, or a new one. A branch that already has
 * an open pull request (an agent opened it, or an earlier run) keeps it:
 * never a second. Resolves with its web URL.
 */
export async function openPullRequest(request: PullRequestRequest): Promise<string> {
  const octokit = new Octokit({ auth: request.token, baseUrl: request.baseUrl.replace(/\/+$/, ""), log: quiet });
  const { owner, repo, head } = request;
  let base = request.base ?? "the default branch";
  try {
    const found = await findOpen(octokit, owner, repo, head);
    if (found !== undefined) return found;
    // A pod's checkout does not say which branch it was made from: the default branch, as the clone took it.
    base = request.base ?? (await octokit.rest.repos.get({ owner, repo })).data.default_branch;
    try {
      const created = await octokit.rest.pulls.create({
        owner,
        repo,
        head,
        base,
        title: request.title,
        body: request.body,
        draft: request.draft,
      });
      return created.data.html_url;
    } catch (error) {
      // 422 when one was opened meanwhile (by the agent, say): that one is the run's.
      const again =
        (error as { status?: number }).status === 422 ? await findOpen(octokit, owner, repo, head) : undefined;
      if (again !== undefined) return again;
      throw error;
    }
  } catch (error) {
    const status = (error as { status?: number }).status;
    const answer = typeof status === "number" ? `code host answered ${status}` : (error as Error).message;
    throw new RepositoryError(
      "pull_request_failed",
      `pull request failed: ${answer} for ${owner}/${repo} (${head} into ${base}): ${firstLine(error)}`,
      { cause: error, hint: "check that the credential may write pull requests on the repository" },
    );
  }
}

async function findOpen(octokit: Octokit, owner: string, repo: string, head: string): Promise<string | undefined> {
  const open = await octokit.rest.pulls.list({ owner, repo, head: `${owner}:${head}`, state: "open", per_page: 1 });
  return open.data[0]?.html_url;
}

function firstLine(error: unknown): string {
  return ((error as Error).message ?? String(error)).split("\n")[0] ?? "";
}

/** Octokit logs request errors itself; the caller reports them once, as the run's reason. */
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
