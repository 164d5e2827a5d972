import type { FakeRepository } from "./fake-repository.js";
import type { RouteAnswer, RouteRequest } from "./fake-routes.js";

const DOCS = "https://docs.github.com/rest/issues/comments#update-an-issue-comment";

/**
 * `PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}` (`rest` is the
 * path after the repository): 200 with the comment, 404 for an unknown id,
 * 400 for a body that is not JSON, 422 without a `body`. Undefined for any
 * other path, which the other routes answer.
 */
export function editCommentRoute(repo: FakeRepository, req: RouteRequest, rest: string[]): RouteAnswer | undefined {
  if (rest[0] !== "issues" || rest[1] !== "comments" || rest.length !== 3) return undefined;
  if (req.method !== "PATCH")
    return { status: 404, body: { message: "Not Found", documentation_url: DOCS, status: "404" } };
  const id = Number(rest[2]);
  for (const issue of repo.issues.values()) {
    const comment = issue.comments.find((c) => c.id === id);
    if (comment === undefined) continue;
    let body: { body?: unknown };
    try {
      body = JSON.parse(req.raw) as { body?: unknown };
    } catch {
      return { status: 400, body: { message: "Problems parsing JSON", documentation_url: DOCS, status: "400" } };
    }
    if (typeof body.body !== "string" || body.body === "")
      return {
        status: 422,
        body: {
          message: "Validation Failed",
          errors: [{ resource: "IssueComment", field: "body", code: "missing_field" }],
          documentation_url: DOCS,
          status: "422",
        },
      };
    comment.body = body.body;
    return { status: 200, body: repo.commentJson(req.api, issue, comment) };
  }
  return { status: 404, body: { message: "Not Found", documentation_url: DOCS, status: "404" } };
}
