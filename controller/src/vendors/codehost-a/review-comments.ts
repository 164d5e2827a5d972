import { Octokit } from "@octokit/rest";
import type { RepositoryToken } from "../../repositories/repository-token.js";
import type { FollowUpComment } from "../../runs/follow-up.js";

/** A pull request's repository and number. */
export interface PullRequestRef {
  owner: string;
  name: string;
  number: number;
}

/** What the follow-up intake reads from code host A's REST API. */
export interface ReviewReader {
  /** The comments of one review, each with its file and line, oldest first. */
  reviewComments(pull: PullRequestRef, reviewId: number): Promise<FollowUpComment[]>;
  /** The pull request's head branch. */
  headBranch(pull: PullRequestRef): Promise<string>;
}

/**
 * Reads reviews through `@octokit/rest` at `baseUrl`
 * (`repositories.codehost_a.api_base_url`), authenticated with a fresh
 * token from `credential` for each call.
 */
export function createReviewReader(baseUrl: string, credential: RepositoryToken): ReviewReader {
  const client = async () =>
    new Octokit({ auth: await credential.token(), baseUrl, userAgent: "errand", request: { retries: 0 } });
  return {
    async reviewComments(pull, reviewId) {
      const octokit = await client();
      const comments = await octokit.paginate(octokit.rest.pulls.listCommentsForReview, {
        owner: pull.owner,
        repo: pull.name,
        pull_number: pull.number,
        review_id: reviewId,
        per_page: 100,
      });
      return comments.map((c) => {
        const line = (c as { line?: number | null }).line ?? c.original_line;
        return {
          author: c.user?.login ?? "",
          body: c.body,
          ...(c.path ? { path: c.path } : {}),
          ...(typeof line === "number" ? { line } : {}),
        };
      });
    },
    async headBranch(pull) {
      const octokit = await client();
      const { data } = await octokit.rest.pulls.get({ owner: pull.owner, repo: pull.name, pull_number: pull.number });
      return data.head.ref;
    },
  };
}
