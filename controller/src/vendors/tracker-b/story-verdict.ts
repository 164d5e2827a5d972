import type { StorySearchResult } from "@shortcut/client";
import type { PollCandidate } from "../../sources/polling/poll-adapter.js";
import type { TrackerBPlan } from "./tracker-b-plan.js";

/** The label lists of `ticketing.config`. */
export interface LabelRules {
  /** Trigger labels: a story must carry every one. */
  labels: readonly string[];
  /** A story carrying any of these is skipped. */
  exclude_labels: readonly string[];
}

/**
 * A searched story as a poll candidate: the ticket exactly as the webhook
 * intake makes it for the same story (id = the story id as text, source
 * `tracker_b`, type `issue`), and why the rules skip it, if they do
 * (spec 3: assigned to the owner mention name, in a trigger state, no
 * excluded label; and the trigger labels when configured).
 */
export function storyCandidate(story: StorySearchResult, plan: TrackerBPlan, rules: LabelRules): PollCandidate {
  const labels = story.labels.map((l) => l.name);
  return {
    ticket: {
      id: String(story.id),
      title: story.name,
      description: story.description ?? "",
      ticketType: "issue",
      // A story names no repository; the webhook intake leaves it empty too.
      repoUrl: "",
      externalUrl: story.app_url,
      labels,
      source: "tracker_b",
      rawEvent: undefined,
    },
    skip: skipReason(story, labels, plan, rules),
  };
}

function skipReason(
  story: StorySearchResult,
  labels: readonly string[],
  plan: TrackerBPlan,
  rules: LabelRules,
): string | undefined {
  const reasons: string[] = [];
  if (story.archived) reasons.push("archived");
  const state = story.workflow_state_id;
  if (plan.inProgress.has(state)) reasons.push(`already in the in-progress state ${plan.stateLabel(state)}`);
  else if (!plan.triggers.has(state))
    reasons.push(
      `wrong state: in ${plan.stateLabel(state)}, not a trigger state (${plan.triggerNames.join(", ")}) of a watched workflow`,
    );
  if (!story.owner_ids.includes(plan.ownerId)) {
    const owners =
      story.owner_ids.length === 0
        ? "it has no owner"
        : `owners: ${story.owner_ids.map((id) => plan.memberLabel(id)).join(", ")}`;
    reasons.push(`not assigned to @${plan.owner} (${owners})`);
  }
  const excluded = rules.exclude_labels.filter((l) => labels.includes(l));
  if (excluded.length > 0)
    reasons.push(`carries the excluded label${excluded.length > 1 ? "s" : ""} ${excluded.join(", ")}`);
  const lacking = rules.labels.filter((l) => !labels.includes(l));
  if (lacking.length > 0) reasons.push(`lacks the trigger label${lacking.length > 1 ? "s" : ""} ${lacking.join(", ")}`);
  return reasons.length === 0 ? undefined : reasons.join("; ");
}
