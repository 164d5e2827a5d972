/**
 * A review on a pull request, as a code host's webhook parser makes it of
 * `pull_request_review`, `pull_request_review_comment` or an `issue_comment`
 * on a pull request. Whether it starts a follow-up run is the follow-up
 * intake's decision (configuration, store); the parser only reads the event.
 */
export interface ReviewEvent {
  /** Which event: a review submitted, a review comment, a comment on the pull request's conversation. */
  kind: "review" | "review_comment" | "issue_comment";
  repository: { owner: string; name: string };
  pullRequest: {
    number: number;
    /** The pull request's web address (`html_url`): how errand finds the run that opened it. */
    url: string;
    /** The head branch; absent from `issue_comment` events. */
    branch?: string;
  };
  /** Login of the review's or comment's author. */
  author: string;
  /** The author's `author_association` (OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE, ...). */
  authorAssociation: string;
  /** The review's or comment's text. */
  body: string;
  /** For a review comment: the file and line it is attached to. */
  path?: string;
  line?: number;
  /** For a review: its id (to fetch its comments) and state. */
  reviewId?: number;
  reviewState?: string;
}
