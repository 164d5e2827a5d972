import { commentFilter, FakeInputError, issueFilter, labelFilter, stateFilter } from "./fake-filters.js";
import type { FakeComment, FakeIssue, FakeLabel, FakeState, FakeTeam, FakeWorkspace } from "./fake-workspace.js";

type Vars = Record<string, unknown>;

/** The API's "Entity not found" (an input error). */
export class FakeNotFound extends FakeInputError {}

// The input types' fields as @linear/sdk 98 declares them; the fake implements the ones the controller may send.
const ISSUE_UPDATE_FIELDS = [
  "addedLabelIds",
  "addedReleaseIds",
  "assigneeId",
  "autoClosedByParentClosing",
  "cycleId",
  "delegateId",
  "description",
  "descriptionData",
  "dueDate",
  "estimate",
  "inheritsSharedAccess",
  "labelIds",
  "lastAppliedTemplateId",
  "parentId",
  "priority",
  "prioritySortOrder",
  "projectId",
  "projectMilestoneId",
  "releaseIds",
  "removedLabelIds",
  "removedReleaseIds",
  "slaBreachesAt",
  "slaStartedAt",
  "slaType",
  "snoozedById",
  "snoozedUntilAt",
  "sortOrder",
  "stateId",
  "subIssueSortOrder",
  "subscriberIds",
  "teamId",
  "title",
  "trashed",
  "trusted",
];
const COMMENT_CREATE_FIELDS = [
  "body",
  "bodyData",
  "createAsUser",
  "createOnSyncedSlackThread",
  "createdAt",
  "displayIconUrl",
  "doNotSubscribeToIssue",
  "documentContentId",
  "id",
  "initiativeId",
  "initiativeUpdateId",
  "issueId",
  "parentId",
  "postId",
  "projectId",
  "projectUpdateId",
  "quotedText",
  "subscriberIds",
];
const COMMENT_UPDATE_FIELDS = [
  "body",
  "bodyData",
  "doNotSubscribeToIssue",
  "quotedText",
  "resolvingCommentId",
  "resolvingUserId",
  "subscriberIds",
];
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The unprojected data of one operation; the server cuts it down to the document's selections. */
export function resolveOperation(ws: FakeWorkspace, operation: string, vars: Vars): Record<string, unknown> {
  const lookup = {
    state: (id: string) => find(ws.states, id, "WorkflowState"),
    label: (id: string) => find(ws.labels, id, "IssueLabel"),
  };
  switch (operation) {
    case "teams":
      noFilter(vars);
      return { teams: connection(ws.teams.map(teamData), vars, "TeamConnection") };
    case "team":
      return { team: teamData(find(ws.teams, String(vars.id), "Team")) };
    case "team_states": {
      const team = find(ws.teams, String(vars.id), "Team");
      const states = ws.states.filter((s) => s.teamId === team.id && stateFilter(vars.filter)(s));
      return {
        team: { ...teamData(team), states: connection(states.map(stateData), vars, "WorkflowStateConnection") },
      };
    }
    case "issueLabels":
      return {
        issueLabels: connection(
          ws.labels.filter(labelFilter(vars.filter)).map(labelData),
          vars,
          "IssueLabelConnection",
        ),
      };
    case "issues": {
      const matches = issueFilter(vars.filter, lookup);
      const issues = ws.issues.filter((i) => (vars.includeArchived === true || !i.archived) && matches(i));
      return { issues: connection(issues.map(issueData), vars, "IssueConnection") };
    }
    case "comments":
      return {
        comments: connection(
          ws.comments.filter(commentFilter(vars.filter)).map(commentData),
          vars,
          "CommentConnection",
        ),
      };
    case "updateIssue":
      return {
        issueUpdate: {
          __typename: "IssuePayload",
          success: true,
          lastSyncId: ws.tick(),
          issue: issueData(updateIssue(ws, String(vars.id), inputOf(vars, ISSUE_UPDATE_FIELDS, "IssueUpdateInput"))),
        },
      };
    case "createComment":
      return {
        commentCreate: {
          __typename: "CommentPayload",
          success: true,
          lastSyncId: ws.tick(),
          comment: commentData(createComment(ws, inputOf(vars, COMMENT_CREATE_FIELDS, "CommentCreateInput"))),
        },
      };
    case "updateComment":
      return {
        commentUpdate: {
          __typename: "CommentPayload",
          success: true,
          lastSyncId: ws.tick(),
          comment: commentData(
            updateComment(ws, String(vars.id), inputOf(vars, COMMENT_UPDATE_FIELDS, "CommentUpdateInput")),
          ),
        },
      };
    default:
      throw new FakeInputError(`the fake does not serve operation ${operation}`);
  }
}

function updateIssue(ws: FakeWorkspace, ref: string, input: Vars): FakeIssue {
  implemented(
    input,
    ["addedLabelIds", "removedLabelIds", "labelIds", "stateId", "title", "description"],
    "IssueUpdateInput",
  );
  const issue = ws.issues.find((i) => i.id === ref || i.identifier === ref);
  if (issue === undefined) throw new FakeNotFound("Entity not found: Issue");
  const usable = (id: unknown) => {
    const label = typeof id === "string" ? ws.labels.find((l) => l.id === id) : undefined;
    if (label === undefined) throw new FakeNotFound(`Entity not found: IssueLabel ${String(id)}`);
    if (label.isGroup) throw new FakeInputError(`label ${label.name} is a group and cannot be applied to issues`);
    if (label.teamId !== null && label.teamId !== issue.teamId)
      throw new FakeInputError(`label ${label.name} belongs to another team`);
    return label.id;
  };
  const before = [...issue.labelIds];
  const adding = ids(input.addedLabelIds, "addedLabelIds").map(usable);
  const removing = ids(input.removedLabelIds, "removedLabelIds");
  if (input.labelIds !== undefined) issue.labelIds = ids(input.labelIds, "labelIds").map(usable);
  issue.labelIds = [...new Set([...issue.labelIds, ...adding])].filter((id) => !removing.includes(id));
  // The log holds what changed: adding a label the issue has, or removing one it lacks, is no change.
  const added = issue.labelIds.filter((id) => !before.includes(id));
  const removed = before.filter((id) => !issue.labelIds.includes(id));
  if (typeof input.stateId === "string")
    issue.stateId = find(
      ws.states.filter((s) => s.teamId === issue.teamId),
      input.stateId,
      "WorkflowState",
    ).id;
  if (typeof input.title === "string") issue.title = input.title;
  if (typeof input.description === "string") issue.description = input.description;
  issue.updatedAt = ws.tick();
  if (added.length + removed.length > 0) {
    ws.changes.push({
      op: "issueUpdate",
      issue: issue.identifier,
      added: added.map((id) => ws.labelName(id)),
      removed: removed.map((id) => ws.labelName(id)),
    });
  }
  return issue;
}

function createComment(ws: FakeWorkspace, input: Vars): FakeComment {
  implemented(input, ["id", "issueId", "body"], "CommentCreateInput");
  const issue = ws.issues.find((i) => i.id === input.issueId || i.identifier === input.issueId);
  if (issue === undefined) throw new FakeNotFound("Entity not found: Issue");
  if (typeof input.body !== "string" || input.body.trim() === "") throw new FakeInputError("body must not be empty");
  const id = input.id === undefined ? crypto.randomUUID() : String(input.id);
  if (!UUID_V4.test(id)) throw new FakeInputError(`id ${id} is not a UUID v4`);
  if (ws.comments.some((c) => c.id === id)) throw new FakeInputError(`a comment with id ${id} already exists`);
  const comment = { id, issueId: issue.id, body: input.body, createdAt: ws.tick() };
  ws.comments.push(comment);
  ws.changes.push({ op: "commentCreate", issue: issue.identifier, commentId: id, body: input.body });
  return comment;
}

/** `commentUpdate`: a new body for an existing comment (the API's "Entity not found" for an unknown id). */
function updateComment(ws: FakeWorkspace, id: string, input: Vars): FakeComment {
  implemented(input, ["body"], "CommentUpdateInput");
  const comment = find(ws.comments, id, "Comment");
  if (typeof input.body !== "string" || input.body.trim() === "") throw new FakeInputError("body must not be empty");
  comment.body = input.body;
  return comment;
}

function connection(nodes: Array<{ id: string }>, vars: Vars, typename: string): Record<string, unknown> {
  if (vars.last !== undefined || vars.before !== undefined)
    throw new FakeInputError("the fake pages forward only (first/after)");
  const first = vars.first ?? 50;
  if (typeof first !== "number" || !Number.isInteger(first) || first < 0 || first > 250)
    throw new FakeInputError("first must be a whole number from 0 to 250");
  let start = 0;
  if (vars.after !== undefined && vars.after !== null) {
    start = nodes.findIndex((n) => n.id === vars.after) + 1;
    if (start === 0) throw new FakeInputError(`after: ${String(vars.after)} is not a cursor of this connection`);
  }
  const page = nodes.slice(start, start + first);
  const pageInfo = {
    __typename: "PageInfo",
    hasNextPage: start + first < nodes.length,
    hasPreviousPage: start > 0,
    startCursor: page[0]?.id ?? null,
    endCursor: page.at(-1)?.id ?? null,
  };
  return { __typename: typename, nodes: page, pageInfo };
}

function inputOf(vars: Vars, known: readonly string[], type: string): Vars {
  const input = vars.input as Vars;
  for (const key of Object.keys(input))
    if (!known.includes(key)) throw new FakeInputError(`Field "${key}" is not defined by type "${type}".`);
  return input;
}

function implemented(input: Vars, keys: readonly string[], type: string): void {
  for (const key of Object.keys(input))
    if (!keys.includes(key)) throw new FakeInputError(`the fake does not implement ${type}.${key}`);
}

function ids(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
    throw new FakeInputError(`${name} must be a list of ids`);
  return value as string[];
}

function noFilter(vars: Vars): void {
  if (vars.filter !== undefined) throw new FakeInputError("the fake does not filter teams");
}

function find<T extends { id: string }>(items: readonly T[], id: string, type: string): T {
  const item = items.find((i) => i.id === id);
  if (item === undefined) throw new FakeNotFound(`Entity not found: ${type}`);
  return item;
}

const iso = (ms: number) => new Date(ms).toISOString();

function teamData(t: FakeTeam) {
  return {
    __typename: "Team",
    id: t.id,
    name: t.name,
    key: t.key,
    displayName: t.name,
    private: false,
    createdAt: iso(0),
    updatedAt: iso(0),
  };
}

function stateData(s: FakeState) {
  return {
    __typename: "WorkflowState",
    id: s.id,
    name: s.name,
    type: s.type,
    position: s.position,
    color: "#bec2c8",
    team: { id: s.teamId },
    createdAt: iso(0),
    updatedAt: iso(0),
  };
}

function labelData(l: FakeLabel) {
  return {
    __typename: "IssueLabel",
    id: l.id,
    name: l.name,
    isGroup: l.isGroup,
    color: "#5e6ad2",
    team: l.teamId === null ? null : { id: l.teamId },
    createdAt: iso(0),
    updatedAt: iso(0),
  };
}

function issueData(i: FakeIssue) {
  return {
    __typename: "Issue",
    id: i.id,
    identifier: i.identifier,
    number: Number(i.identifier.split("-")[1]),
    title: i.title,
    description: i.description,
    url: `https://linear.example/acme/issue/${i.identifier}`,
    labelIds: [...i.labelIds],
    state: { id: i.stateId },
    team: { id: i.teamId },
    trashed: i.trashed,
    priority: 0,
    priorityLabel: "No priority",
    sortOrder: 0,
    prioritySortOrder: 0,
    boardOrder: 0,
    customerTicketCount: 0,
    previousIdentifiers: [],
    reactionData: [],
    reactions: [],
    inheritsSharedAccess: false,
    sharedAccess: {
      __typename: "IssueSharedAccess",
      isShared: false,
      sharedWithCount: 0,
      viewerHasOnlySharedAccess: false,
      disallowedIssueFields: [],
      sharedWithUsers: [],
    },
    branchName: `eng/${i.identifier.toLowerCase()}`,
    createdAt: iso(i.createdAt),
    updatedAt: iso(i.updatedAt),
    archivedAt: i.archived ? iso(i.updatedAt) : null,
  };
}

function commentData(c: FakeComment) {
  return {
    __typename: "Comment",
    id: c.id,
    body: c.body,
    issue: { id: c.issueId },
    url: `https://linear.example/acme/comment/${c.id}`,
    reactionData: [],
    reactions: [],
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.createdAt),
  };
}
