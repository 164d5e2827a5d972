import { badRequest } from "../../webhook/errors.js";
import { isObject, type JsonObject, text } from "../../webhook/parsing/decode.js";
import type { ReviewEvent } from "../../webhook/parsing/review-event.js";
import { ignored, reviewed, type SourceOutcome } from "../../webhook/parsing/source.js";

/**
 * Code host A's review events: `pull_request_review` `submitted` with
 * changes requested, `pull_request_review_comment` `created`, and
 * `issue_comment` `created` on a pull request. Returns undefined for any
 * other event (an `issue_comment` on an issue included), which the issue
 * parser handles; an event of these kinds that asks for nothing is
 * ignored with the reason. Whether a review starts a follow-up (mention,
 * author, the pull request's run) is decided by the follow-up intake.
 */
export function mapReviewEvent(event: string, payload: () => JsonObject): SourceOutcome | undefined {
  if (event === "pull_request_review") return fromReview(payload());
  if (event === "pull_request_review_comment") return fromReviewComment(payload());
  if (event !== "issue_comment") return undefined;
  const body = payload();
  return isObject(body.issue) && isObject(body.issue.pull_request) ? fromIssueComment(body) : undefined;
}

function fromReview(body: JsonObject): SourceOutcome {
  const action = text(body.action);
  if (action !== "submitted")
    return ignored(`pull_request_review action ${JSON.stringify(action)} starts no follow-up`);
  const review = object(body.review, "review");
  const state = text(review.state).toLowerCase();
  if (state !== "changes_requested")
    return ignored(`review state ${JSON.stringify(state)} starts no follow-up (only changes_requested does)`);
  return reviewed({
    ...common(body, object(body.pull_request, "pull_request"), review),
    kind: "review",
    reviewId: whole(review.id, "review.id"),
    reviewState: state,
  });
}

function fromReviewComment(body: JsonObject): SourceOutcome {
  const action = text(body.action);
  if (action !== "created")
    return ignored(`pull_request_review_comment action ${JSON.stringify(action)} starts no follow-up`);
  const comment = object(body.comment, "comment");
  const line = comment.line ?? comment.original_line;
  return reviewed({
    ...common(body, object(body.pull_request, "pull_request"), comment),
    kind: "review_comment",
    ...(text(comment.path) === "" ? {} : { path: text(comment.path) }),
    ...(typeof line === "number" && Number.isSafeInteger(line) ? { line } : {}),
  });
}

function fromIssueComment(body: JsonObject): SourceOutcome {
  const action = text(body.action);
  if (action !== "created") return ignored(`issue_comment action ${JSON.stringify(action)} starts no follow-up`);
  const issue = object(body.issue, "issue");
  const pull = object(issue.pull_request, "issue.pull_request");
  // The conversation's comment carries the pull request as an issue: its number, and its web address under pull_request.
  return reviewed({
    ...common(body, { number: issue.number, html_url: pull.html_url }, object(body.comment, "comment")),
    kind: "issue_comment",
  });
}

/** The fields every review event has: repository, pull request, author and text. */
function common(body: JsonObject, pull: JsonObject, item: JsonObject): Omit<ReviewEvent, "kind"> {
  const repository = object(body.repository, "repository");
  const owner = isObject(repository.owner) ? text(repository.owner.login) : "";
  const user = isObject(item.user) ? item.user : {};
  const head = isObject(pull.head) ? text(pull.head.ref) : "";
  const url = text(pull.html_url);
  if (owner === "" || text(repository.name) === "")
    throw badRequest("review event lacks repository.owner.login or repository.name");
  if (url === "") throw badRequest("review event lacks the pull request's html_url");
  return {
    repository: { owner, name: text(repository.name) },
    pullRequest: { number: whole(pull.number, "pull request number"), url, ...(head === "" ? {} : { branch: head }) },
    author: text(user.login),
    authorAssociation: text(item.author_association).toUpperCase(),
    body: text(item.body),
  };
}

function object(value: unknown, path: string): JsonObject {
  if (!isObject(value)) throw badRequest(`review event lacks the ${path} object`);
  return value;
}

function whole(value: unknown, path: string): number {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return value;
  throw badRequest(`${path} is missing or not a whole number`);
}
