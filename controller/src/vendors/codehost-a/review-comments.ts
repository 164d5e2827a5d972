import { Octokit } from "@octokit/rest";
import type { ReviewSource } from "../../follow-ups/follow-up-intake.js";
import type { RepositoryToken } from "../../repositories/repository-token.js";

/**
 * Reads reviews through `@octokit/rest` at `baseUrl`
 * (`repositories.codehost_a.api_base_url`), authenticated with a fresh
 * token from `credential` for each call.
 */
export function createReviewReader(baseUrl: string, credential: RepositoryToken): ReviewSource {
  const client = async () => new Octokit({ auth: await credential.token(), baseUrl, userAgent: "errand" });
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
