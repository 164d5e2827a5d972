import type { LinearSdk } from "@linear/sdk";
import { ConfigError, type ConfigProblem } from "../../config/config-error.js";
import { allNodes } from "./all-nodes.js";
import type { TrackerATicketingConfig } from "./tracker-a-schema.js";

/** A configured label name and the ids of the labels of that name the team's issues can carry. */
export interface LabelRef {
  name: string;
  ids: string[];
}

/** The configuration's names resolved to the workspace's ids, once at start. */
export interface Workspace {
  team: { id: string; name: string; key: string };
  /** `state_filter` resolved; undefined when no state filter is set. */
  state: { id: string; name: string } | undefined;
  /** Every state of the team, id to name (for skip reasons). */
  stateNames: ReadonlyMap<string, string>;
  /** Every label the team's issues can carry, id to name. */
  labelNames: ReadonlyMap<string, string>;
  trigger: LabelRef[];
  exclude: LabelRef[];
  /** The labels written back; `ids[0]` is the one added. */
  inProgress: LabelRef;
  failed: LabelRef;
}

const CONFIG = "ticketing.config";
const MAX_LISTED = 40;

/**
 * Resolves the team, `state_filter` and every label name of the
 * configuration, exactly and case-sensitively. Everything that does not
 * exist is reported at once, each problem listing the names that do.
 * Labels are the team's own and the workspace's (labels of other teams
 * cannot go on the team's issues); group labels cannot go on issues at all.
 */
export async function resolveWorkspace(sdk: LinearSdk, config: TrackerATicketingConfig): Promise<Workspace> {
  const teams = await allNodes(await sdk.teams({ first: 100 }), "teams");
  const team = teams.find((t) => t.id.toLowerCase() === config.team_id.toLowerCase());
  if (team === undefined) {
    const listed = teams.map((t) => `${t.id} (${t.key}, ${JSON.stringify(t.name)})`);
    throw new ConfigError([
      {
        key: `${CONFIG}.team_id`,
        message: `${config.team_id} is not a team this token can see`,
        fix:
          teams.length === 0
            ? "the token sees no team: use a token of a member of the team"
            : `use one of: ${list(listed)}`,
      },
    ]);
  }
  const states = await allNodes(await team.states({ first: 100 }), `the states of team ${team.key}`);
  const labels = (
    await allNodes(
      await sdk.issueLabels({
        first: 100,
        filter: { or: [{ team: { id: { eq: team.id } } }, { team: { null: true } }] },
      }),
      `the labels of team ${team.key}`,
    )
  ).filter((l) => !l.isGroup);
  const problems: ConfigProblem[] = [];
  const stateNames = new Map(states.map((s) => [s.id, s.name]));
  let state: Workspace["state"];
  if (config.state_filter !== undefined) {
    const found = states.find((s) => s.name === config.state_filter);
    if (found === undefined) {
      const names = [...states].sort((a, b) => a.position - b.position).map((s) => s.name);
      problems.push({
        key: `${CONFIG}.state_filter`,
        message: `${JSON.stringify(config.state_filter)} is not a state of team ${team.key}`,
        fix: `${caseSlip(config.state_filter, names)}use one of (exact, case-sensitive): ${list(names.map((n) => JSON.stringify(n)))}`,
      });
    } else state = { id: found.id, name: found.name };
  }
  // Team labels first: the one added is the team's when a workspace label has the same name.
  const ordered = [...labels].sort((a, b) => Number(b.teamId === team.id) - Number(a.teamId === team.id));
  const existing = [...new Set(ordered.map((l) => l.name))].sort((a, b) => a.localeCompare(b));
  const resolve = (key: string, name: string): LabelRef => {
    const ids = ordered.filter((l) => l.name === name).map((l) => l.id);
    if (ids.length === 0) {
      problems.push({
        key: `${CONFIG}.${key}`,
        message: `label ${JSON.stringify(name)} does not exist in team ${team.key} or the workspace`,
        fix: `${caseSlip(name, existing)}create it in the tracker (team ${team.key}'s labels or the workspace's) or use one of (exact, case-sensitive): ${list(existing.map((n) => JSON.stringify(n)))}`,
      });
    }
    return { name, ids };
  };
  const trigger = config.labels.map((name) => resolve("labels", name));
  const exclude = config.exclude_labels.map((name) => resolve("exclude_labels", name));
  const inProgress = resolve("in_progress_label", config.in_progress_label);
  const failed = resolve("failed_label", config.failed_label);
  problems.push(...conflicts(config));
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    team: { id: team.id, name: team.name, key: team.key },
    state,
    stateNames,
    labelNames: new Map(labels.map((l) => [l.id, l.name])),
    trigger,
    exclude,
    inProgress,
    failed,
  };
}

/** Settings that would pick up every open issue, or nothing ever. */
function conflicts(config: TrackerATicketingConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if (config.labels.length === 0 && config.state_filter === undefined) {
    problems.push({
      key: `${CONFIG}.labels`,
      message: "is empty and state_filter is not set: every open issue of the team would be picked up",
      fix: "set labels (issues must carry them), state_filter (issues must be in that state), or both",
    });
  }
  if (config.in_progress_label === config.failed_label) {
    problems.push({
      key: `${CONFIG}.failed_label`,
      message: `is the same label as in_progress_label (${JSON.stringify(config.failed_label)})`,
      fix: "use two different labels, e.g. agent-in-progress and agent-failed",
    });
  }
  for (const name of config.labels) {
    if (config.exclude_labels.includes(name) || name === config.failed_label) {
      problems.push({
        key: `${CONFIG}.labels`,
        message: `${JSON.stringify(name)} is a trigger label and also ${name === config.failed_label ? "the failed_label" : "in exclude_labels"}, so no issue could be picked up`,
        fix: "remove it from one of the two",
      });
    }
  }
  return problems;
}

/** `did you mean "Todo"? ` when a name differs from an existing one only in case. */
function caseSlip(name: string, names: readonly string[]): string {
  const near = names.find((n) => n.toLowerCase() === name.toLowerCase());
  return near === undefined ? "" : `did you mean ${JSON.stringify(near)} (names are case-sensitive)? Or `;
}

function list(names: readonly string[]): string {
  if (names.length === 0) return "(none)";
  const shown = names.slice(0, MAX_LISTED).join(", ");
  return names.length > MAX_LISTED ? `${shown} and ${names.length - MAX_LISTED} more` : shown;
}
