import type { FakeRepository } from "./fake-repository.js";
import type { RouteAnswer, RouteRequest } from "./fake-routes.js";

/** A review comment as the fake stores it. */
export interface FakeReviewComment {
  author: string;
  body: string;
  path: string;
  line: number;
}

/** A pull request of the fake, with its reviews' inline comments. */
export interface FakePull {
  number: number;
  head: string;
  base: string;
  /** Review id → its comments. */
  reviews: Map<number, FakeReviewComment[]>;
}

const pullsOf = new WeakMap<FakeRepository, Map<number, FakePull>>();

/** The pull requests of a fake repository (created empty on first use); tests add to it. */
export function fakePulls(repo: FakeRepository): Map<number, FakePull> {
  let pulls = pullsOf.get(repo);
  if (pulls === undefined) {
    pulls = new Map();
    pullsOf.set(repo, pulls);
  }
  return pulls;
}

const DOCS = "https://docs.github.com/rest/pulls";
const notFound = (docs: string): RouteAnswer => ({
  status: 404,
  body: { message: "Not Found", documentation_url: docs, status: "404" },
});

/**
 * GET /repos/{o}/{r}/pulls/{n} and GET /repos/{o}/{r}/pulls/{n}/reviews/{id}/comments,
 * in the vendor's shapes (the fields errand reads, and their neighbours); 404 for an
 * unknown pull request or review. Undefined for any other path.
 */
export function reviewRoute(
  repo: FakeRepository,
  req: RouteRequest,
  rest: string[],
  page: (req: RouteRequest, items: unknown[]) => RouteAnswer,
): RouteAnswer | undefined {
  if (rest[0] !== "pulls" || rest.length < 2) return undefined;
  if (req.method !== "GET") return { status: 404, body: { message: "Not Found", documentation_url: DOCS } };
  const number = Number(rest[1]);
  const pull = fakePulls(repo).get(number);
  const html = `https://codehost-a.test/${repo.owner}/${repo.name}/pull/${number}`;
  if (rest.length === 2) {
    if (pull === undefined) return notFound(`${DOCS}/pulls#get-a-pull-request`);
    return {
      status: 200,
      body: {
        url: `${req.api}/repos/${repo.owner}/${repo.name}/pulls/${number}`,
        html_url: html,
        number,
        state: "open",
        draft: true,
        head: { ref: pull.head, sha: "0".repeat(40), label: `${repo.owner}:${pull.head}` },
        base: { ref: pull.base, sha: "1".repeat(40), label: `${repo.owner}:${pull.base}` },
      },
    };
  }
  if (rest.length !== 5 || rest[2] !== "reviews" || rest[4] !== "comments") return undefined;
  const reviewId = Number(rest[3]);
  const comments = pull?.reviews.get(reviewId);
  if (comments === undefined) return notFound(`${DOCS}/reviews#list-comments-for-a-pull-request-review`);
  return page(
    req,
    comments.map((c, i) => ({
      id: reviewId * 1000 + i,
      pull_request_review_id: reviewId,
      path: c.path,
      line: c.line,
      original_line: c.line,
      position: c.line,
      body: c.body,
      user: { login: c.author, type: "User" },
      html_url: `${html}#discussion_r${reviewId * 1000 + i}`,
      author_association: "MEMBER",
    })),
  );
}
