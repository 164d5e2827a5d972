import { randomUUID } from "node:crypto";

export interface FakeTeam {
  id: string;
  name: string;
  key: string;
}
export interface FakeState {
  id: string;
  name: string;
  type: "triage" | "backlog" | "unstarted" | "started" | "completed" | "canceled";
  position: number;
  teamId: string;
}
export interface FakeLabel {
  id: string;
  name: string;
  /** null: a workspace label, usable in every team. */
  teamId: string | null;
  isGroup: boolean;
}
export interface FakeIssue {
  id: string;
  identifier: string;
  teamId: string;
  title: string;
  description: string | null;
  stateId: string;
  labelIds: string[];
  createdAt: number;
  updatedAt: number;
  archived: boolean;
  trashed: boolean;
}
export interface FakeComment {
  id: string;
  issueId: string;
  body: string;
  createdAt: number;
}
/** What the controller changed, in order, with names for readable assertions. */
export type FakeChange =
  | { op: "issueUpdate"; issue: string; added: string[]; removed: string[] }
  | { op: "commentCreate"; issue: string; commentId: string; body: string };

const ENG_STATES = [
  ["Triage", "triage"],
  ["Backlog", "backlog"],
  ["Todo", "unstarted"],
  ["In Progress", "started"],
  ["In Review", "started"],
  ["Done", "completed"],
  ["Canceled", "canceled"],
] as const;

/**
 * The tracker's data, in memory: two teams (ENG with a full workflow, OPS),
 * team and workspace labels (a group label among them), issues, comments,
 * and the ordered log of what the controller changed.
 */
export class FakeWorkspace {
  readonly teams: FakeTeam[] = [];
  readonly states: FakeState[] = [];
  readonly labels: FakeLabel[] = [];
  readonly issues: FakeIssue[] = [];
  readonly comments: FakeComment[] = [];
  readonly changes: FakeChange[] = [];
  private clock = Date.UTC(2026, 0, 1);

  constructor() {
    const eng = this.addTeam("Engineering", "ENG");
    ENG_STATES.forEach(([name, type], position) =>
      this.states.push({ id: randomUUID(), name, type, position, teamId: eng.id }),
    );
    const ops = this.addTeam("Operations", "OPS");
    for (const [position, [name, type]] of [
      ["Backlog", "backlog"],
      ["Todo", "unstarted"],
      ["Done", "completed"],
    ].entries()) {
      this.states.push({
        id: randomUUID(),
        name: name as string,
        type: type as FakeState["type"],
        position,
        teamId: ops.id,
      });
    }
    for (const name of ["agent-in-progress", "agent-failed", "bug", "Feature"]) this.addLabel(name, null);
    this.labels.push({ id: randomUUID(), name: "Type", teamId: null, isGroup: true });
    for (const name of ["agent", "wontfix", "needs-design"]) this.addLabel(name, "ENG");
    this.addLabel("ops-only", "OPS");
  }

  addTeam(name: string, key: string): FakeTeam {
    const team = { id: randomUUID(), name, key };
    this.teams.push(team);
    return team;
  }

  addLabel(name: string, teamKey: string | null): FakeLabel {
    const label = { id: randomUUID(), name, teamId: teamKey === null ? null : this.team(teamKey).id, isGroup: false };
    this.labels.push(label);
    return label;
  }

  team(key: string): FakeTeam {
    const team = this.teams.find((t) => t.key === key);
    if (team === undefined) throw new Error(`no team ${key}`);
    return team;
  }

  state(teamKey: string, name: string): FakeState {
    const state = this.states.find((s) => s.teamId === this.team(teamKey).id && s.name === name);
    if (state === undefined) throw new Error(`no state ${name} in ${teamKey}`);
    return state;
  }

  label(name: string, teamKey?: string): FakeLabel {
    const teamId = teamKey === undefined ? undefined : this.team(teamKey).id;
    const label = this.labels.find(
      (l) => l.name === name && (teamId === undefined || l.teamId === teamId || l.teamId === null),
    );
    if (label === undefined) throw new Error(`no label ${name}`);
    return label;
  }

  /** A new issue (ENG, Todo, no labels unless given), the newest of the workspace. */
  addIssue(
    fields: { title?: string; team?: string; state?: string; labels?: string[]; description?: string } = {},
  ): FakeIssue {
    const teamKey = fields.team ?? "ENG";
    const team = this.team(teamKey);
    const number = this.issues.filter((i) => i.teamId === team.id).length + 1;
    const at = this.tick();
    const issue: FakeIssue = {
      id: randomUUID(),
      identifier: `${teamKey}-${number}`,
      teamId: team.id,
      title: fields.title ?? `Issue ${teamKey}-${number}`,
      description: fields.description ?? "Make the tests pass.",
      stateId: this.state(teamKey, fields.state ?? "Todo").id,
      labelIds: (fields.labels ?? []).map((name) => this.label(name, teamKey).id),
      createdAt: at,
      updatedAt: at,
      archived: false,
      trashed: false,
    };
    this.issues.push(issue);
    return issue;
  }

  /** An issue by identifier (ENG-1) or id. */
  issue(ref: string): FakeIssue {
    const issue = this.issues.find((i) => i.identifier === ref || i.id === ref);
    if (issue === undefined) throw new Error(`no issue ${ref}`);
    return issue;
  }

  labelsOf(ref: string): string[] {
    return this.issue(ref).labelIds.map((id) => this.labelName(id));
  }

  commentsOf(ref: string): FakeComment[] {
    const issue = this.issue(ref);
    return this.comments.filter((c) => c.issueId === issue.id);
  }

  labelName(id: string): string {
    return this.labels.find((l) => l.id === id)?.name ?? id;
  }

  tick(): number {
    this.clock += 1000;
    return this.clock;
  }
}
