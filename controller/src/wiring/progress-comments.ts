import type { Logger } from "@errand/channel-sdk";
import type { Registry } from "prom-client";
import type { ControllerConfig } from "../config/controller-config.js";
import type { RepositoryToken } from "../repositories/repository-token.js";
import type { RunObserver } from "../runs/run-event.js";
import type { ThrottleClock } from "../sources/progress-comment/comment-throttle.js";
import {
  type CommentTarget,
  createProgressCommentObserver,
} from "../sources/progress-comment/progress-comment-observer.js";

/** What the progress comments need besides the configuration. */
export interface ProgressCommentParts {
  /** Every secret the configuration names, resolved (the trackers' tokens). */
  secrets: Readonly<Record<string, string>>;
  /** Code host A's credential (`repositories.codehost_a`); without it, no comment on its issues. */
  codehostAToken?: RepositoryToken;
  logger: Logger;
  registry: Registry;
  clock?: ThrottleClock;
}

/**
 * The run observers that keep a progress comment on the ticket: on code
 * host A issues when `repositories.codehost_a.progress_comment` is on (the
 * default) and its credential is given; on tracker A and B tickets when
 * `ticketing.config.progress_comment` is on. Each vendor's SDK is loaded only
 * when its comments are on.
 */
export async function createProgressComments(
  config: ControllerConfig,
  parts: ProgressCommentParts,
): Promise<RunObserver[]> {
  const targets: CommentTarget[] = [];
  const codehostA = config.repositories.codehostA;
  if (codehostA?.progress_comment === true && parts.codehostAToken !== undefined) {
    const { createCodehostACommentTarget } = await import("../vendors/codehost-a/issue-comment-target.js");
    targets.push(createCodehostACommentTarget({ apiBaseUrl: codehostA.api_base_url, token: parts.codehostAToken }));
  }
  const tracker = await trackerTarget(config, parts.secrets);
  if (tracker !== undefined) targets.push(tracker);
  return targets.map((target) =>
    createProgressCommentObserver({
      target,
      logger: parts.logger.child({ component: "progress-comment" }),
      registry: parts.registry,
      ...(parts.clock === undefined ? {} : { clock: parts.clock }),
    }),
  );
}

/** The tracker of `ticketing`, when its progress comment is on (its token was checked at start). */
async function trackerTarget(
  config: ControllerConfig,
  secrets: Readonly<Record<string, string>>,
): Promise<CommentTarget | undefined> {
  const t = config.ticketing;
  const token = t?.tokenSecret === undefined ? undefined : secrets[t.tokenSecret]?.trim();
  if (t === undefined || token === undefined || token === "") return undefined;
  if (t.backend === "tracker_a" && t.config.progress_comment) {
    const { createLinearApi, graphqlUrl } = await import("../vendors/tracker-a/linear-api.js");
    const { createTrackerACommentTarget } = await import("../vendors/tracker-a/progress-comment-target.js");
    const api = createLinearApi({
      apiUrl: graphqlUrl(t.config.api_base_url),
      token,
      requestTimeoutMs: 30_000,
      maxInlineWaitMs: 5_000,
    });
    return createTrackerACommentTarget(api);
  }
  if (t.backend === "tracker_b" && t.config.progress_comment) {
    const { createTrackerBCommentTarget } = await import("../vendors/tracker-b/progress-comment-target.js");
    return createTrackerBCommentTarget({ token, baseUrl: t.config.api_base_url, timeoutMs: 30_000 });
  }
  return undefined;
}
