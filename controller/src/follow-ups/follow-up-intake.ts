import type { Logger } from "@errand/channel-sdk";
import { ConflictError } from "../errors.js";
import type { CodehostARepositoriesConfig } from "../repositories/repositories-schema.js";
import type { FollowUpComment, FollowUpContext } from "../runs/follow-up.js";
import type { PullRequestRuns, Store } from "../store/store.js";
import { mentions } from "../vendors/codehost-a/codehost-a-triggers.js";
import type { ReviewHandler } from "../webhook/handlers.js";
import type { ReviewEvent } from "../webhook/parsing/review-event.js";
import type { WebhookReply } from "../webhook/responses.js";

/** What the follow-up intake reads from the code host (vendors/codehost-a/review-comments.ts implements it). */
export interface ReviewSource {
  reviewComments(pull: { owner: string; name: string; number: number }, reviewId: number): Promise<FollowUpComment[]>;
  headBranch(pull: { owner: string; name: string; number: number }): Promise<string>;
}

/** Options of {@link createFollowUpIntake}. */
export interface FollowUpIntakeOptions {
  /** `repositories.codehost_a`: follow_ups, triggers.mention, bot_login. */
  config: CodehostARepositoriesConfig;
  store: Store;
  /** The code host's REST API; without it a review's inline comments and a conversation comment's branch are unknown. */
  reviews: ReviewSource | undefined;
  logger: Logger;
}

/** Authors with write access, by the event's `author_association`. */
const WRITERS = new Set(["OWNER", "MEMBER", "COLLABORATOR"]);

const ignored = (reason: string): { reply: WebhookReply } => ({ reply: { status: "ignored", reason } });

/**
 * The follow-up intake: a review with changes requested, or a review
 * comment or conversation comment mentioning the phrase, by a user with
 * write access and not by the agent's own login, on a pull request a run
 * of errand opened, becomes a follow-up run of that run's ticket (see
 * Store.createFollowUp for the limits). Anything else is answered
 * `200 ignored` with the reason; so is a follow-up the store refuses.
 */
export function createFollowUpIntake(options: FollowUpIntakeOptions): ReviewHandler {
  const { config, store, logger } = options;
  return async (reviews) => {
    const [review] = reviews;
    if (review === undefined) return ignored("the event carries no review");
    const skip = skipReason(review, config);
    if (skip !== undefined) return ignored(skip);
    const runs = await store.findPullRequestRun(review.pullRequest.url);
    if (runs === undefined) return ignored(`pull request ${review.pullRequest.url} was not opened by errand`);
    const branch = await branchOf(review, runs, options.reviews);
    if (branch === undefined)
      return ignored(
        `the branch of pull request ${review.pullRequest.url} is unknown: give repositories.codehost_a a credential`,
      );
    const followUp: FollowUpContext = {
      pullRequest: { number: review.pullRequest.number, url: review.pullRequest.url, branch },
      trigger: review.kind,
      ...(review.reviewState === undefined ? {} : { reviewState: review.reviewState }),
      comments: await commentsOf(review, options.reviews),
      ...(runs.latest.sessionId === undefined ? {} : { resumeSessionId: runs.latest.sessionId }),
    };
    try {
      const run = await store.createFollowUp({
        parentRunId: runs.latest.id,
        followUp,
        reason: `follow-up of ${runs.latest.id}: ${describe(review)} on ${review.pullRequest.url}`,
        maxPerPullRequest: config.follow_ups.max_per_pull_request,
      });
      logger.info("follow-up run queued", {
        run_id: run.id,
        parent_run_id: runs.latest.id,
        pull_request: followUp.pullRequest.url,
      });
      return { reply: { status: "accepted", tickets: [runs.ticket.id] } };
    } catch (error) {
      if (error instanceof ConflictError) return ignored(error.message);
      throw error;
    }
  };
}

/** Why the review starts nothing, from the event and the configuration alone; undefined when it may. */
function skipReason(review: ReviewEvent, config: CodehostARepositoriesConfig): string | undefined {
  if (!config.follow_ups.enabled) return "follow-ups are off (repositories.codehost_a.follow_ups.enabled: false)";
  const bot = config.bot_login?.toLowerCase();
  if (bot !== undefined && review.author.toLowerCase() === bot)
    return `written by ${review.author}, the agent's own login (bot_login): it never starts a run`;
  if (!WRITERS.has(review.authorAssociation))
    return `${review.author || "the author"} is ${review.authorAssociation || "unknown"} on the repository: only OWNER, MEMBER or COLLABORATOR start follow-ups`;
  const phrase = config.triggers.mention;
  // The same test as an issue comment's: "@errand-bot" or "me@errand.dev" do not mention "@errand".
  if (review.kind !== "review" && !mentions(review.body, phrase)) return `the comment does not mention ${phrase}`;
  return undefined;
}

async function branchOf(review: ReviewEvent, runs: PullRequestRuns, source: ReviewSource | undefined) {
  if (review.pullRequest.branch !== undefined) return review.pullRequest.branch;
  const known = runs.latest.followUp?.pullRequest.branch ?? runs.opened.followUp?.pullRequest.branch;
  if (known !== undefined) return known;
  return source?.headBranch(pullOf(review));
}

/** The review's text first, then its inline comments with their file and line; a comment alone for the others. */
async function commentsOf(review: ReviewEvent, source: ReviewSource | undefined): Promise<FollowUpComment[]> {
  const own: FollowUpComment = {
    author: review.author,
    body: review.body,
    ...(review.path === undefined ? {} : { path: review.path }),
    ...(review.line === undefined ? {} : { line: review.line }),
  };
  if (review.kind !== "review" || review.reviewId === undefined) return [own];
  const inline = source ? await source.reviewComments(pullOf(review), review.reviewId) : [];
  return review.body.trim() === "" ? inline : [own, ...inline];
}

const pullOf = (review: ReviewEvent) => ({ ...review.repository, number: review.pullRequest.number });

function describe(review: ReviewEvent): string {
  if (review.kind === "review") return `changes requested by ${review.author}`;
  return `${review.kind === "review_comment" ? "review comment" : "comment"} by ${review.author}`;
}
