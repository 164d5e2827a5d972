import { ConfigError } from "../../config/config-error.js";
import { ControllerError, ControllerErrorCode } from "../../errors.js";
import type { PollAdapter, PollCandidate } from "../../sources/polling/poll-adapter.js";
import { DEFAULT_RATE_LIMIT_POLICY, type RateLimitPolicy } from "./retry-after.js";
import { storyCandidate } from "./story-verdict.js";
import { createStoryWriteBack } from "./story-write-back.js";
import { createTrackerBApi } from "./tracker-b-api.js";
import { TrackerBApiError } from "./tracker-b-api-error.js";
import { resolveTrackerBPlan, type TrackerBPlan } from "./tracker-b-plan.js";
import type { TrackerBTicketingConfig } from "./tracker-b-schema.js";

/** Tuning of {@link createTrackerBAdapter}; the defaults suit the public API. */
export interface TrackerBAdapterOptions {
  /** Bound of one HTTP request; default 30 s. */
  timeoutMs?: number;
  rateLimit?: Partial<RateLimitPolicy>;
  /** Stories per search page, 1 to 250; default 250 (fewest requests). */
  pageSize?: number;
}

/**
 * Tracker B (a Shortcut-style tracker) through `@shortcut/client`: polls
 * the stories in the trigger states, picks up those assigned to
 * `owner_mention_name` without excluded labels, and writes progress back
 * as spec 3 says (in-progress state and a comment on pick-up; completed
 * state and a comment with the pull request link on success).
 */
export function createTrackerBAdapter(
  config: TrackerBTicketingConfig,
  token: string | undefined,
  options: TrackerBAdapterOptions = {},
): PollAdapter {
  if (token === undefined || token === "") {
    throw new ConfigError([
      {
        key: "ticketing.config.token_secret",
        message: "names no secret with a token in it",
        fix: "store a tracker B API token in the secret and name it in ticketing.config.token_secret",
      },
    ]);
  }
  const api = createTrackerBApi({
    token,
    baseUrl: config.api_base_url,
    timeoutMs: options.timeoutMs ?? 30_000,
    rateLimit: { ...DEFAULT_RATE_LIMIT_POLICY, ...options.rateLimit },
    pageSize: options.pageSize ?? 250,
  });
  let resolved: TrackerBPlan | undefined;
  const plan = () => {
    if (resolved === undefined)
      throw new ControllerError(ControllerErrorCode.Internal, "the tracker B source was used before prepare()");
    return resolved;
  };
  const writeBack = createStoryWriteBack(api, plan, !config.progress_comment);

  return {
    backend: "tracker_b",
    async prepare(ctx) {
      const labelsUsed = config.labels.length + config.exclude_labels.length > 0;
      try {
        const [workflows, members, labels] = await Promise.all([
          api.listWorkflows(ctx),
          api.listMembers(ctx),
          labelsUsed ? api.listLabels(ctx) : undefined,
        ]);
        const { plan: p, warnings } = resolveTrackerBPlan(config, { workflows, members, labels });
        for (const warning of warnings) ctx.logger.warn(warning);
        resolved = p;
      } catch (error) {
        if (error instanceof TrackerBApiError && error.status === 401) {
          throw new ConfigError([
            {
              key: "ticketing.config.token_secret",
              message: `tracker B refused the token (${error.message})`,
              fix: error.hint ?? "store a valid API token in the secret",
            },
          ]);
        }
        throw error;
      }
    },
    async poll(ctx) {
      const p = plan();
      const seen = new Map<number, PollCandidate>();
      for (const name of p.triggerNames) {
        // The search matches names loosely; the exact rules are applied to each story below.
        for (const story of await api.searchStories(`state:"${name}" !is:archived`, ctx)) {
          if (!seen.has(story.id)) seen.set(story.id, storyCandidate(story, p, config));
        }
      }
      return [...seen.values()];
    },
    pickedUp: writeBack.pickedUp,
    finished: writeBack.finished,
  };
}
