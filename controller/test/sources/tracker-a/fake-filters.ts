import type { FakeComment, FakeIssue, FakeLabel, FakeState } from "./fake-workspace.js";

/** A request the fake refuses as the API would (bad input), or because it does not implement a filter field. */
export class FakeInputError extends Error {}

type Pred<T> = (entity: T) => boolean;
type Filter = Record<string, unknown>;

function fields(filter: unknown, path: string, allowed: readonly string[]): Filter {
  if (typeof filter !== "object" || filter === null || Array.isArray(filter))
    throw new FakeInputError(`${path} must be an input object`);
  for (const key of Object.keys(filter)) {
    if (!allowed.includes(key))
      throw new FakeInputError(
        `the fake does not implement filter field ${path}.${key} (it knows ${allowed.join(", ")})`,
      );
  }
  return filter as Filter;
}

function list(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new FakeInputError(`${path} must be a list`);
  return value;
}

/** IdComparator / StringComparator: eq, neq, in, nin (exact, case-sensitive). */
function comparator(filter: unknown, path: string): Pred<string | null | undefined> {
  const f = fields(filter, path, ["eq", "neq", "in", "nin"]);
  const within = f.in === undefined ? undefined : list(f.in, `${path}.in`);
  const outside = f.nin === undefined ? undefined : list(f.nin, `${path}.nin`);
  return (value) =>
    (f.eq === undefined || value === f.eq)
    && (f.neq === undefined || value !== f.neq)
    && (within === undefined || within.includes(value))
    && (outside === undefined || !outside.includes(value));
}

function combine<T>(
  f: Filter,
  path: string,
  own: Pred<T>[],
  self: (filter: unknown, path: string) => Pred<T>,
): Pred<T> {
  const ands = f.and === undefined ? [] : list(f.and, `${path}.and`).map((sub, k) => self(sub, `${path}.and[${k}]`));
  const ors = f.or === undefined ? undefined : list(f.or, `${path}.or`).map((sub, k) => self(sub, `${path}.or[${k}]`));
  return (entity) =>
    own.every((p) => p(entity)) && ands.every((p) => p(entity)) && (ors === undefined || ors.some((p) => p(entity)));
}

/** NullableTeamFilter reduced to a team id (null for workspace-wide entities). */
function teamRef(filter: unknown, path: string): Pred<string | null> {
  const f = fields(filter, path, ["id", "null"]);
  const id = f.id === undefined ? () => true : comparator(f.id, `${path}.id`);
  return (teamId) =>
    (f.null === undefined || (teamId === null) === f.null) && (teamId === null ? f.id === undefined : id(teamId));
}

/** IssueLabelFilter. */
export function labelFilter(filter: unknown, path = "filter"): Pred<FakeLabel> {
  if (filter === undefined || filter === null) return () => true;
  const f = fields(filter, path, ["id", "name", "team", "isGroup", "and", "or"]);
  const own: Pred<FakeLabel>[] = [];
  if (f.id !== undefined)
    own.push(
      (
        (p) => (l: FakeLabel) =>
          p(l.id)
      )(comparator(f.id, `${path}.id`)),
    );
  if (f.name !== undefined)
    own.push(
      (
        (p) => (l: FakeLabel) =>
          p(l.name)
      )(comparator(f.name, `${path}.name`)),
    );
  if (f.team !== undefined)
    own.push(
      (
        (p) => (l: FakeLabel) =>
          p(l.teamId)
      )(teamRef(f.team, `${path}.team`)),
    );
  if (f.isGroup !== undefined) {
    const eq = fields(f.isGroup, `${path}.isGroup`, ["eq"]).eq;
    own.push((l) => l.isGroup === eq);
  }
  return combine(f, path, own, labelFilter);
}

/** WorkflowStateFilter. */
export function stateFilter(filter: unknown, path = "filter"): Pred<FakeState> {
  if (filter === undefined || filter === null) return () => true;
  const f = fields(filter, path, ["id", "name", "type", "and", "or"]);
  const own: Pred<FakeState>[] = [];
  if (f.id !== undefined)
    own.push(
      (
        (p) => (s: FakeState) =>
          p(s.id)
      )(comparator(f.id, `${path}.id`)),
    );
  if (f.name !== undefined)
    own.push(
      (
        (p) => (s: FakeState) =>
          p(s.name)
      )(comparator(f.name, `${path}.name`)),
    );
  if (f.type !== undefined)
    own.push(
      (
        (p) => (s: FakeState) =>
          p(s.type)
      )(comparator(f.type, `${path}.type`)),
    );
  return combine(f, path, own, stateFilter);
}

/** IssueFilter, over an issue and the lookups it needs. */
export function issueFilter(
  filter: unknown,
  lookup: { state(id: string): FakeState; label(id: string): FakeLabel },
  path = "filter",
): Pred<FakeIssue> {
  if (filter === undefined || filter === null) return () => true;
  const f = fields(filter, path, ["id", "team", "state", "labels", "and", "or"]);
  const own: Pred<FakeIssue>[] = [];
  if (f.id !== undefined)
    own.push(
      (
        (p) => (i: FakeIssue) =>
          p(i.id)
      )(comparator(f.id, `${path}.id`)),
    );
  if (f.team !== undefined) {
    const team = fields(f.team, `${path}.team`, ["id"]);
    const id = comparator(team.id, `${path}.team.id`);
    own.push((i) => id(i.teamId));
  }
  if (f.state !== undefined)
    own.push(
      (
        (p) => (i: FakeIssue) =>
          p(lookup.state(i.stateId))
      )(stateFilter(f.state, `${path}.state`)),
    );
  if (f.labels !== undefined) {
    const labels = fields(f.labels, `${path}.labels`, ["some", "every"]);
    const some = labels.some === undefined ? undefined : labelFilter(labels.some, `${path}.labels.some`);
    const every = labels.every === undefined ? undefined : labelFilter(labels.every, `${path}.labels.every`);
    own.push((i) => {
      const carried = i.labelIds.map((id) => lookup.label(id));
      return (some === undefined || carried.some(some)) && (every === undefined || carried.every(every));
    });
  }
  return combine(f, path, own, (sub, p) => issueFilter(sub, lookup, p));
}

/** CommentFilter. */
export function commentFilter(filter: unknown, path = "filter"): Pred<FakeComment> {
  if (filter === undefined || filter === null) return () => true;
  const f = fields(filter, path, ["id", "issue", "and", "or"]);
  const own: Pred<FakeComment>[] = [];
  if (f.id !== undefined)
    own.push(
      (
        (p) => (c: FakeComment) =>
          p(c.id)
      )(comparator(f.id, `${path}.id`)),
    );
  if (f.issue !== undefined) {
    const issue = fields(f.issue, `${path}.issue`, ["id"]);
    const id = comparator(issue.id, `${path}.issue.id`);
    own.push((c) => id(c.issueId));
  }
  return combine(f, path, own, commentFilter);
}
