import type { Label, Member, Workflow } from "@shortcut/client";
import { ConfigError, type ConfigProblem } from "../../config/config-error.js";
import { didYouMean } from "../../config/did-you-mean.js";
import type { TrackerBTicketingConfig } from "./tracker-b-schema.js";

/** A trigger state of one workflow and where a story in it goes when its run starts. */
export interface TriggerState {
  workflowId: number;
  workflowName: string;
  name: string;
  inProgressId: number;
  inProgressName: string;
}

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
  const warnings: string[] = [];
  const { workflows } = workspace;
  const stateIn = (w: Workflow, name: string) => w.states.find((s) => s.name === name);
  const allNames = [...new Set(workflows.flatMap((w) => w.states.map((s) => s.name)))];

  const triggers = new Map<number, TriggerState>();
  for (const pair of configuredPairs(config)) {
    const withTrigger = workflows.filter((w) => stateIn(w, pair.trigger));
    if (withTrigger.length === 0) {
      problems.push(
        missing(pair.triggerKey, `no workflow has a state named ${q(pair.trigger)}`, pair.trigger, allNames, workflows),
      );
      continue;
    }
    const usable = withTrigger.filter((w) => stateIn(w, pair.inProgress));
    if (usable.length === 0) {
      const names = [...new Set(withTrigger.flatMap((w) => w.states.map((s) => s.name)))];
      problems.push(
        missing(
          pair.inProgressKey,
          `no workflow with the state ${q(pair.trigger)} has a state named ${q(pair.inProgress)}`,
          pair.inProgress,
          names,
          withTrigger,
        ),
      );
      continue;
    }
    for (const w of usable) {
      const trigger = stateIn(w, pair.trigger);
      const inProgress = stateIn(w, pair.inProgress);
      if (trigger === undefined || inProgress === undefined) continue;
      if (triggers.has(trigger.id)) {
        problems.push({
          key: pair.triggerKey,
          message: `repeats the trigger state ${q(pair.trigger)} of an earlier entry`,
          fix: "give each trigger state one entry in workflows[]",
        });
        continue;
      }
      triggers.set(trigger.id, {
        workflowId: w.id,
        workflowName: w.name,
        name: trigger.name,
        inProgressId: inProgress.id,
        inProgressName: inProgress.name,
      });
    }
  }

  // Judged after every pair: another entry may cover a workflow this one cannot.
  for (const pair of configuredPairs(config)) {
    for (const w of workflows) {
      const trigger = stateIn(w, pair.trigger);
      if (trigger !== undefined && !triggers.has(trigger.id) && problems.length === 0) {
        warnings.push(
          `workflow ${q(w.name)} has the state ${q(pair.trigger)} but no ${q(pair.inProgress)}: its stories are not picked up`,
        );
      }
    }
  }

  const completed = new Map<number, number>();
  const done = config.completed_state_name;
  const watched = workflows.filter((w) => [...triggers.values()].some((t) => t.workflowId === w.id));
  if (done !== undefined && watched.length > 0) {
    for (const w of watched) {
      const state = stateIn(w, done);
      if (state) completed.set(w.id, state.id);
      else
        warnings.push(
          `workflow ${q(w.name)} has no state ${q(done)}: its stories stay where they are when a run succeeds`,
        );
    }
    if (completed.size === 0) {
      const names = [...new Set(watched.flatMap((w) => w.states.map((s) => s.name)))];
      problems.push(
        missing(
          `${KEY}.completed_state_name`,
          `no workflow the trigger states belong to has a state named ${q(done)}`,
          done,
          names,
          watched,
        ),
      );
    }
  }

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

interface Pair {
  trigger: string;
  inProgress: string;
  triggerKey: string;
  inProgressKey: string;
}

function configuredPairs(config: TrackerBTicketingConfig): Pair[] {
  if (config.workflows !== undefined) {
    return config.workflows.map((w, i) => ({
      trigger: w.trigger_state,
      inProgress: w.in_progress_state,
      triggerKey: `${KEY}.workflows[${i}].trigger_state`,
      inProgressKey: `${KEY}.workflows[${i}].in_progress_state`,
    }));
  }
  // The schema requires both single names when workflows[] is absent.
  return [
    {
      trigger: config.workflow_state_name ?? "",
      inProgress: config.in_progress_state_name ?? "",
      triggerKey: `${KEY}.workflow_state_name`,
      inProgressKey: `${KEY}.in_progress_state_name`,
    },
  ];
}

function missing(
  key: string,
  message: string,
  name: string,
  candidates: string[],
  workflows: readonly Workflow[],
): ConfigProblem {
  const hint = didYouMean(name, candidates);
  const states = workflows.map((w) => `${q(w.name)}: ${w.states.map((s) => s.name).join(", ")}`).join("; ");
  return {
    key,
    message: `${message}${hint ? `; did you mean ${q(hint)}?` : ""}`,
    fix: `write a state that exists (exact, case-sensitive); the workflows' states are ${states || "none (the workspace has no workflow)"}`,
  };
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
