import type { Label, Member, Workflow } from "@shortcut/client";
import { ConfigError, type ConfigProblem } from "../../config/config-error.js";
import { didYouMean } from "../../config/did-you-mean.js";
import type { TrackerBTicketingConfig } from "./tracker-b-schema.js";
import { partlyUsableWorkflows, resolveCompleted, resolveTriggers, type TriggerState } from "./workflow-states.js";

export type { TriggerState } from "./workflow-states.js";

/** The configuration resolved against the workspace: ids in place of names. */
export interface TrackerBPlan {
  /** Member id of `owner_mention_name`. */
  ownerId: string;
  /** The mention name, without `@`. */
  owner: string;
  /** Trigger state id → its workflow and in-progress state. */
  triggers: ReadonlyMap<number, TriggerState>;
  /** Ids of the in-progress states. */
  inProgress: ReadonlySet<number>;
  /** Workflow id → id of its `completed_state_name` state; empty when that key is unset. */
  completed: ReadonlyMap<number, number>;
  /** The distinct trigger state names, for the search queries. */
  triggerNames: readonly string[];
  /** `Workflow / State` for a state id, for skip reasons and logs. */
  stateLabel(id: number): string;
  /** `@mention` of a member id, for skip reasons. */
  memberLabel(id: string): string;
}

/** What {@link resolveTrackerBPlan} reads from the workspace. */
export interface TrackerBWorkspace {
  workflows: readonly Workflow[];
  members: readonly Member[];
  /** Undefined when no label is configured (then they are not fetched). */
  labels: readonly Label[] | undefined;
}

const KEY = "ticketing.config";
const q = (name: string) => JSON.stringify(name);

/**
 * Resolves state, member and label names (exact, case-sensitive) to the
 * workspace's ids. Throws a {@link ConfigError} (ERR_INVALID_CONFIG) with
 * every name that does not exist, each listing the names that do. Returns
 * warnings for workflows only partly usable.
 */
export function resolveTrackerBPlan(
  config: TrackerBTicketingConfig,
  workspace: TrackerBWorkspace,
): { plan: TrackerBPlan; warnings: string[] } {
  const problems: ConfigProblem[] = [];
  const { workflows } = workspace;
  const triggers = resolveTriggers(config, workflows, problems);
  const warnings = partlyUsableWorkflows(config, workflows, triggers, problems);
  const completed = resolveCompleted(config.completed_state_name, workflows, triggers, problems, warnings);
  const member = findOwner(config, workspace.members, problems);
  if (workspace.labels !== undefined) checkLabels(config, workspace.labels, problems);

  if (problems.length > 0 || member === undefined) throw new ConfigError(problems);
  const names = new Map(workflows.flatMap((w) => w.states.map((s) => [s.id, `${w.name} / ${s.name}`] as const)));
  const mentions = new Map(workspace.members.map((m) => [m.id, `@${m.profile.mention_name}`] as const));
  const plan: TrackerBPlan = {
    ownerId: member.id,
    owner: member.profile.mention_name,
    triggers,
    inProgress: new Set([...triggers.values()].map((t) => t.inProgressId)),
    completed,
    triggerNames: [...new Set([...triggers.values()].map((t) => t.name))],
    stateLabel: (id) => names.get(id) ?? `state ${id}`,
    memberLabel: (id) => mentions.get(id) ?? `member ${id}`,
  };
  return { plan, warnings };
}

function listed(names: readonly string[]): string {
  if (names.length === 0) return "(none)";
  const shown = names.slice(0, 40).join(", ");
  return names.length > 40 ? `${shown} and ${names.length - 40} more` : shown;
}

/** The active member named by `owner_mention_name`; a problem when there is none. */
function findOwner(
  config: TrackerBTicketingConfig,
  members: readonly Member[],
  problems: ConfigProblem[],
): Member | undefined {
  const owner = config.owner_mention_name.replace(/^@/, "");
  const member = members.find((m) => m.profile.mention_name === owner);
  if (member === undefined || member.disabled) {
    const names = members
      .filter((m) => !m.disabled)
      .map((m) => m.profile.mention_name)
      .sort();
    const hint = didYouMean(owner, names);
    problems.push({
      key: `${KEY}.owner_mention_name`,
      message: member
        ? `${q(owner)} is a disabled member`
        : `no member has the mention name ${q(owner)}${hint ? `; did you mean ${q(hint)}?` : ""}`,
      fix: `write the mention name (exact, case-sensitive) of an active member: ${listed(names)}`,
    });
  }
  return member;
}

/** A problem for every label of `labels` and `exclude_labels` the workspace does not have. */
function checkLabels(config: TrackerBTicketingConfig, labels: readonly Label[], problems: ConfigProblem[]): void {
  const names = labels.map((l) => l.name).sort();
  for (const key of ["labels", "exclude_labels"] as const) {
    config[key].forEach((label, i) => {
      if (names.includes(label)) return;
      const hint = didYouMean(label, names);
      problems.push({
        key: `${KEY}.${key}[${i}]`,
        message: `no label is named ${q(label)}${hint ? `; did you mean ${q(hint)}?` : ""}`,
        fix: `create the label in the tracker, or write one that exists (exact, case-sensitive): ${listed(names)}`,
      });
    });
  }
}
