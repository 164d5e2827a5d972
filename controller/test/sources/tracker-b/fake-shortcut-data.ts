/**
 * The fake tracker B workspace's data, shaped as the REST API v3 answers
 * (the fields @shortcut/client declares as required, and the ones the
 * controller reads).
 */

export interface FakeState {
  id: number;
  name: string;
  type: "unstarted" | "started" | "done";
}
export interface FakeWorkflow {
  id: number;
  name: string;
  states: FakeState[];
}
export interface FakeMember {
  id: string;
  mention_name: string;
  disabled?: boolean;
}
export interface FakeLabel {
  id: number;
  name: string;
}
export interface FakeComment {
  id: number;
  text: string;
  external_id: string | null;
  created_at: string;
}
export interface FakeStory {
  id: number;
  name: string;
  description: string;
  workflow_state_id: number;
  owner_ids: string[];
  labels: string[];
  archived: boolean;
  comments: FakeComment[];
}

/** What the controller changed, in order. */
export type FakeEvent =
  | { story: number; kind: "state"; from: string; to: string }
  | { story: number; kind: "comment"; text: string; external_id: string | null };

export const BOT_ID = "5f0c1e2a-0000-4000-8000-00000000b0b0";
export const ALICE_ID = "5f0c1e2a-0000-4000-8000-0000000a11ce";

/** Two workflows that share a trigger state name; only Engineering has "In Progress". */
export const SEED_WORKFLOWS: FakeWorkflow[] = [
  {
    id: 500000001,
    name: "Engineering",
    states: [
      { id: 500000010, name: "Unscheduled", type: "unstarted" },
      { id: 500000011, name: "Ready for Agent", type: "unstarted" },
      { id: 500000012, name: "In Progress", type: "started" },
      { id: 500000013, name: "In Review", type: "started" },
      { id: 500000014, name: "Done", type: "done" },
    ],
  },
  {
    id: 500000002,
    name: "Design",
    states: [
      { id: 500000020, name: "Backlog", type: "unstarted" },
      { id: 500000021, name: "Ready for Agent", type: "unstarted" },
      { id: 500000022, name: "Doing", type: "started" },
      { id: 500000023, name: "Shipped", type: "done" },
    ],
  },
];

export const SEED_MEMBERS: FakeMember[] = [
  { id: BOT_ID, mention_name: "errand-bot" },
  { id: ALICE_ID, mention_name: "alice" },
  { id: "5f0c1e2a-0000-4000-8000-000000000b0b", mention_name: "bob", disabled: true },
];

export const SEED_LABELS: FakeLabel[] = [
  { id: 7001, name: "agent" },
  { id: 7002, name: "do-not-automate" },
  { id: 7003, name: "frontend" },
];

const AT = "2024-05-01T12:00:00Z";

export function workflowJson(w: FakeWorkflow) {
  return {
    id: w.id,
    name: w.name,
    description: "",
    entity_type: "workflow",
    project_ids: [],
    team_id: 1,
    auto_assign_owner: false,
    default_state_id: w.states[0]?.id,
    created_at: AT,
    updated_at: AT,
    states: w.states.map((s, position) => ({
      id: s.id,
      name: s.name,
      type: s.type,
      description: "",
      entity_type: "workflow-state",
      global_id: `state-${s.id}`,
      num_stories: 0,
      num_story_templates: 0,
      position,
      verb: null,
      color: "#cccccc",
      created_at: AT,
      updated_at: AT,
    })),
  };
}

export function memberJson(m: FakeMember) {
  return {
    id: m.id,
    role: "member",
    entity_type: "member",
    disabled: m.disabled === true,
    global_id: `member-${m.id}`,
    state: m.disabled ? "disabled" : "full",
    created_without_invite: false,
    group_ids: [],
    created_at: AT,
    updated_at: AT,
    profile: {
      id: m.id,
      entity_type: "profile",
      deactivated: m.disabled === true,
      mention_name: m.mention_name,
      name: m.mention_name,
      display_icon: null,
      is_owner: false,
      email_address: `${m.mention_name}@example.com`,
    },
  };
}

export function labelJson(l: FakeLabel) {
  return {
    id: l.id,
    name: l.name,
    app_url: `https://app.example/acme/label/${l.id}`,
    archived: false,
    entity_type: "label",
    global_id: `label-${l.id}`,
    color: null,
    description: null,
    external_id: null,
    created_at: AT,
    updated_at: AT,
  };
}

export function commentJson(storyId: number, c: FakeComment) {
  return {
    id: c.id,
    story_id: storyId,
    text: c.text,
    external_id: c.external_id,
    app_url: `https://app.example/acme/story/${storyId}#activity-${c.id}`,
    entity_type: "story-comment",
    deleted: false,
    author_id: BOT_ID,
    mention_ids: [],
    member_mention_ids: [],
    group_mention_ids: [],
    linked_to_slack: false,
    parent_id: null,
    position: 1,
    reactions: [],
    created_at: c.created_at,
    updated_at: c.created_at,
  };
}

/** A story as search and GET answer it; `full` adds the description (and comments for GET). */
export function storyJson(
  s: FakeStory,
  workflowOf: (stateId: number) => number,
  labels: readonly FakeLabel[],
  detail: "full" | "slim" | "story",
) {
  const story: Record<string, unknown> = {
    id: s.id,
    name: s.name,
    app_url: `https://app.example/acme/story/${s.id}`,
    entity_type: "story",
    story_type: "feature",
    archived: s.archived,
    started: false,
    completed: false,
    blocked: false,
    blocker: false,
    workflow_id: workflowOf(s.workflow_state_id),
    workflow_state_id: s.workflow_state_id,
    owner_ids: [...s.owner_ids],
    follower_ids: [],
    requested_by_id: BOT_ID,
    labels: s.labels.map((name) => labelJson(labels.find((l) => l.name === name) ?? { id: 0, name })),
    label_ids: s.labels.map((name) => labels.find((l) => l.name === name)?.id ?? 0),
    external_links: [],
    mention_ids: [],
    member_mention_ids: [],
    group_mention_ids: [],
    story_links: [],
    previous_iteration_ids: [],
    global_id: `story-${s.id}`,
    position: s.id,
    stats: { num_related_documents: 0 },
    created_at: AT,
    updated_at: AT,
  };
  if (detail !== "slim") story.description = s.description;
  if (detail === "story") story.comments = s.comments.map((c) => commentJson(s.id, c));
  return story;
}
