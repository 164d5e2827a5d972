import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  BOT_ID,
  commentJson,
  type FakeEvent,
  type FakeLabel,
  type FakeMember,
  type FakeStory,
  type FakeWorkflow,
  labelJson,
  memberJson,
  SEED_LABELS,
  SEED_MEMBERS,
  SEED_WORKFLOWS,
  storyJson,
  workflowJson,
} from "./fake-shortcut-data.js";
import { searchPage } from "./fake-shortcut-search.js";
import { updateStoryCommentRoute } from "./fake-story-comment-update.js";

/** An answer forced on the next requests (rate limits, outages, hangs). */
export interface Fault {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Never answer (until the fake closes). */
  hang?: boolean;
  /** How many requests it applies to; default every one until {@link FakeShortcut.heal}. */
  times?: number;
  /** Only requests this returns true for. */
  match?: (method: string, path: string) => boolean;
}

/** One request as the fake saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  status: number;
}

/** A strict in-memory tracker B (REST API v3) on 127.0.0.1. */
export interface FakeShortcut {
  url: string;
  token: string;
  stories: Map<number, FakeStory>;
  /** State changes and comments the controller made, in order. */
  events: FakeEvent[];
  requests: SeenRequest[];
  addStory(fields: Partial<FakeStory> & { state?: string; workflow?: string }): FakeStory;
  /** A person moves a story (not logged as an event). */
  move(storyId: number, state: string, workflow?: string): void;
  stateName(stateId: number): string;
  inject(fault: Fault): void;
  heal(): void;
  close(): Promise<void>;
}

/** Options of {@link startFakeShortcut}. */
export interface FakeShortcutOptions {
  token?: string;
  workflows?: FakeWorkflow[];
  members?: FakeMember[];
  labels?: FakeLabel[];
}

const NOT_FOUND = { message: "Resource not found.", tag: "not_found" };
const STORY_KEYS = new Set([
  "workflow_state_id",
  "name",
  "description",
  "owner_ids",
  "labels",
  "archived",
  "estimate",
  "move_to",
  "epic_id",
  "iteration_id",
]);
const COMMENT_KEYS = new Set(["text", "external_id", "author_id", "created_at", "updated_at", "parent_id"]);

/** Starts the fake; its data: two workflows, three members (one disabled), three labels, no stories. */
export async function startFakeShortcut(options: FakeShortcutOptions = {}): Promise<FakeShortcut> {
  const token = options.token ?? "sc-token-1234";
  const workflows = options.workflows ?? SEED_WORKFLOWS;
  const members = options.members ?? SEED_MEMBERS;
  const labels = options.labels ?? SEED_LABELS;
  const stories = new Map<number, FakeStory>();
  const events: FakeEvent[] = [];
  const requests: SeenRequest[] = [];
  let faults: Fault[] = [];
  const hung = new Set<ServerResponse>();
  let nextId = 100;
  let nextCommentId = 9000;

  const states = workflows.flatMap((w) => w.states.map((s) => ({ ...s, workflow: w })));
  const workflowOf = (stateId: number) => states.find((s) => s.id === stateId)?.workflow.id ?? 0;
  const stateName = (stateId: number) => states.find((s) => s.id === stateId)?.name ?? `#${stateId}`;
  const stateId = (name: string, workflow?: string) => {
    const found = states.find((s) => s.name === name && (workflow === undefined || s.workflow.name === workflow));
    if (!found) throw new Error(`fake: no state ${name}`);
    return found.id;
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => send(res, 500, { message: String(error) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    const method = req.method ?? "GET";
    const seen: SeenRequest = { method, path: url.pathname, query: url.searchParams, status: 0 };
    requests.push(seen);
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      seen.status = status;
      send(res, status, body, headers);
    };
    const fault = faults.find((f) => (f.times ?? 1) > 0 && (f.match?.(method, url.pathname) ?? true));
    if (fault) {
      if (fault.times !== undefined) fault.times--;
      if (fault.hang) {
        hung.add(res);
        return;
      }
      return reply(fault.status ?? 500, fault.body ?? { message: "Internal Server Error" }, fault.headers);
    }
    // The API takes its token in the Shortcut-Token header; anything else is 401.
    if (req.headers["shortcut-token"] !== token) return reply(401, { message: "Unauthorized", tag: "unauthorized" });
    const body = await readJson(req);
    if (body === "bad")
      return reply(400, { message: "The request body is not JSON of type application/json.", tag: "bad_request" });

    const storyRoute = /^\/api\/v3\/stories\/(\d+)(\/comments)?$/.exec(url.pathname);
    if (method === "GET" && url.pathname === "/api/v3/workflows") return reply(200, workflows.map(workflowJson));
    if (method === "GET" && url.pathname === "/api/v3/members") return reply(200, members.map(memberJson));
    if (method === "GET" && url.pathname === "/api/v3/labels") return reply(200, labels.map(labelJson));
    if (method === "GET" && url.pathname === "/api/v3/search/stories") {
      const page = searchPage(url.searchParams, [...stories.values()], stateName);
      if ("error" in page) return reply(400, { message: page.error, tag: "bad_request" });
      return reply(200, {
        total: page.total,
        next: page.next,
        data: page.stories.map((s) => storyJson(s, workflowOf, labels, page.detail)),
      });
    }
    const updated = updateStoryCommentRoute(method, url.pathname, body, stories);
    if (updated !== undefined) return reply(updated.status, updated.body);
    if (storyRoute === null) return reply(404, NOT_FOUND);
    const story = stories.get(Number(storyRoute[1]));
    if (story === undefined) return reply(404, NOT_FOUND);
    if (method === "GET" && !storyRoute[2]) return reply(200, storyJson(story, workflowOf, labels, "story"));
    if (method === "PUT" && !storyRoute[2]) {
      const unknown = Object.keys(body ?? {}).filter((k) => !STORY_KEYS.has(k));
      if (body === undefined || unknown.length > 0)
        return reply(400, {
          message: `Unknown or missing parameters: ${unknown.join(", ") || "body"}`,
          tag: "bad_request",
        });
      const target = body.workflow_state_id;
      if (target !== undefined) {
        if (typeof target !== "number" || !states.some((s) => s.id === target))
          return reply(422, {
            message: "The request included invalid data",
            errors: { workflow_state_id: "not a workflow state" },
          });
        events.push({
          story: story.id,
          kind: "state",
          from: stateName(story.workflow_state_id),
          to: stateName(target),
        });
        story.workflow_state_id = target;
      }
      return reply(200, storyJson(story, workflowOf, labels, "story"));
    }
    if (method === "POST" && storyRoute[2]) {
      const unknown = Object.keys(body ?? {}).filter((k) => !COMMENT_KEYS.has(k));
      if (body === undefined || typeof body.text !== "string" || body.text === "" || unknown.length > 0)
        return reply(400, { message: "text is required; unknown keys are refused", tag: "bad_request" });
      const externalId = typeof body.external_id === "string" ? body.external_id : null;
      const comment = {
        id: nextCommentId++,
        text: body.text,
        external_id: externalId,
        created_at: new Date().toISOString(),
      };
      story.comments.push(comment);
      events.push({ story: story.id, kind: "comment", text: comment.text, external_id: externalId });
      return reply(201, commentJson(story.id, comment));
    }
    return reply(405, { message: `${method} is not allowed here`, tag: "method_not_allowed" });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    stories,
    events,
    requests,
    addStory(fields) {
      const id = fields.id ?? nextId++;
      const story: FakeStory = {
        id,
        name: fields.name ?? `Story ${id}`,
        description: fields.description ?? `Do thing ${id}.`,
        workflow_state_id:
          fields.workflow_state_id ?? stateId(fields.state ?? "Ready for Agent", fields.workflow ?? "Engineering"),
        owner_ids: fields.owner_ids ?? [BOT_ID],
        labels: fields.labels ?? [],
        archived: fields.archived ?? false,
        comments: fields.comments ?? [],
      };
      stories.set(id, story);
      return story;
    },
    move(storyId, state, workflow) {
      const story = stories.get(storyId);
      if (story) story.workflow_state_id = stateId(state, workflow);
    },
    stateName,
    inject(fault) {
      faults.push(fault);
    },
    heal() {
      faults = [];
      for (const res of hung) res.destroy();
      hung.clear();
    },
    async close() {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}

/** The JSON object body of a PUT or POST (which must say application/json); undefined for none, "bad" for anything else. */
async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined | "bad"> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return undefined;
  if (!(req.headers["content-type"] ?? "").startsWith("application/json")) return "bad";
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : "bad";
  } catch {
    return "bad";
  }
}
