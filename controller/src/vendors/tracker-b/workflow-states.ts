import type { Workflow } from "@shortcut/client";
import type { ConfigProblem } from "../../config/config-error.js";
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

const KEY = "ticketing.config";
const q = (name: string) => JSON.stringify(name);
const stateIn = (w: Workflow, name: string) => w.states.find((s) => s.name === name);
const stateNames = (workflows: readonly Workflow[]) => [
  ...new Set(workflows.flatMap((w) => w.states.map((s) => s.name))),
];

/** Trigger state id → its workflow and in-progress state, for every configured pair; a problem for each name missing. */
export function resolveTriggers(
  config: TrackerBTicketingConfig,
  workflows: readonly Workflow[],
  problems: ConfigProblem[],
): Map<number, TriggerState> {
  const triggers = new Map<number, TriggerState>();
  for (const pair of configuredPairs(config)) {
    const withTrigger = workflows.filter((w) => stateIn(w, pair.trigger));
    if (withTrigger.length === 0) {
      problems.push(
        missing(
          pair.triggerKey,
          `no workflow has a state named ${q(pair.trigger)}`,
          pair.trigger,
          stateNames(workflows),
          workflows,
        ),
      );
      continue;
    }
    const usable = withTrigger.filter((w) => stateIn(w, pair.inProgress));
    if (usable.length === 0) {
      problems.push(
        missing(
          pair.inProgressKey,
          `no workflow with the state ${q(pair.trigger)} has a state named ${q(pair.inProgress)}`,
          pair.inProgress,
          stateNames(withTrigger),
          withTrigger,
        ),
      );
      continue;
    }
    for (const w of usable) addTrigger(triggers, w, pair, problems);
  }
  return triggers;
}

/** Records the trigger of `pair` in workflow `w`; a problem when an earlier entry already named that state. */
function addTrigger(triggers: Map<number, TriggerState>, w: Workflow, pair: Pair, problems: ConfigProblem[]): void {
  const trigger = stateIn(w, pair.trigger);
  const inProgress = stateIn(w, pair.inProgress);
  if (trigger === undefined || inProgress === undefined) return;
  if (triggers.has(trigger.id)) {
    problems.push({
      key: pair.triggerKey,
      message: `repeats the trigger state ${q(pair.trigger)} of an earlier entry`,
      fix: "give each trigger state one entry in workflows[]",
    });
    return;
  }
  triggers.set(trigger.id, {
    workflowId: w.id,
    workflowName: w.name,
    name: trigger.name,
    inProgressId: inProgress.id,
    inProgressName: inProgress.name,
  });
}

/** A warning for each workflow that has a trigger state but not its in-progress state (when nothing else is wrong). */
export function partlyUsableWorkflows(
  config: TrackerBTicketingConfig,
  workflows: readonly Workflow[],
  triggers: ReadonlyMap<number, TriggerState>,
  problems: readonly ConfigProblem[],
): string[] {
  const warnings: string[] = [];
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
  return warnings;
}

/**
 * Workflow id → id of its `done` state, for the workflows the triggers belong to: a warning for each one without it,
 * a problem when none has it. Empty when `done` is unset.
 */
export function resolveCompleted(
  done: string | undefined,
  workflows: readonly Workflow[],
  triggers: ReadonlyMap<number, TriggerState>,
  problems: ConfigProblem[],
  warnings: string[],
): Map<number, number> {
  const completed = new Map<number, number>();
  const watched = workflows.filter((w) => [...triggers.values()].some((t) => t.workflowId === w.id));
  if (done === undefined || watched.length === 0) return completed;
  for (const w of watched) {
    const state = stateIn(w, done);
    if (state) completed.set(w.id, state.id);
    else
      warnings.push(
        `workflow ${q(w.name)} has no state ${q(done)}: its stories stay where they are when a run succeeds`,
      );
  }
  if (completed.size === 0) {
    problems.push(
      missing(
        `${KEY}.completed_state_name`,
        `no workflow the trigger states belong to has a state named ${q(done)}`,
        done,
        stateNames(watched),
        watched,
      ),
    );
  }
  return completed;
}

interface Pair {
  trigger: string;
  inProgress: string;
  triggerKey: string;
  inProgressKey: string;
}

/** The configured (trigger, in-progress) name pairs with the keys they are written under, for problems. */
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
