/** The pull request a follow-up run works on. */
export interface FollowUpPullRequest {
  number: number;
  /** The pull request's web address, as the code host reports it (`html_url`). */
  url: string;
  /** The head branch the follow-up checks out and pushes to. */
  branch: string;
}

/** One comment that asked for the follow-up. */
export interface FollowUpComment {
  /** The commenter's login. */
  author: string;
  body: string;
  /** For a review comment: the file it is attached to. */
  path?: string;
  /** For a review comment: the line of `path` it is attached to. */
  line?: number;
}

/**
 * Why a follow-up run exists: the pull request an earlier run of the same
 * ticket opened, and the review or comments that asked for more work.
 */
export interface FollowUpContext {
  pullRequest: FollowUpPullRequest;
  /** What triggered it: a review with changes requested, a review comment, a pull request comment. */
  trigger: "review" | "review_comment" | "issue_comment";
  /** The review's state (`changes_requested`) when a review triggered it. */
  reviewState?: string;
  /** The comments to address, in the order the reviewer wrote them. */
  comments: FollowUpComment[];
  /** The parent run's engine session (TaskRun.sessionId), which the follow-up resumes where the engine can. */
  resumeSessionId?: string;
}
