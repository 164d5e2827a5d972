import {
  type Label,
  type Member,
  ShortcutClient,
  type Story,
  type StorySearchResult,
  type Workflow,
} from "@shortcut/client";
import type { PollContext } from "../../sources/polling/poll-adapter.js";
import { type RateLimitPolicy, withRetryAfter } from "./retry-after.js";
import { TrackerBApiError } from "./tracker-b-api-error.js";

/** The calls the tracker B source makes, through `@shortcut/client`, each rate-limit aware and abortable. */
export interface TrackerBApi {
  listWorkflows(ctx: PollContext): Promise<Workflow[]>;
  listMembers(ctx: PollContext): Promise<Member[]>;
  listLabels(ctx: PollContext): Promise<Label[]>;
  /** Every page of a story search (`next` tokens followed), with descriptions. */
  searchStories(query: string, ctx: PollContext): Promise<StorySearchResult[]>;
  /** One story with its comments. */
  getStory(id: number, ctx: PollContext): Promise<Story>;
  moveStory(id: number, workflowStateId: number, ctx: PollContext): Promise<void>;
  /** Posts a comment; `externalId` marks it as the controller's, so a repeat can be detected. */
  addComment(id: number, text: string, externalId: string, ctx: PollContext): Promise<void>;
}

/** Options of {@link createTrackerBApi}. */
export interface TrackerBApiOptions {
  token: string;
  /** `ticketing.config.api_base_url`; unset: the vendor's public API. */
  baseUrl: string | undefined;
  /** Bound of one HTTP request (a hung API fails the call instead of holding a poll forever). */
  timeoutMs: number;
  rateLimit: RateLimitPolicy;
  /** Stories per search page (the API allows 1 to 250). */
  pageSize: number;
}

/** Guards against a server that keeps answering with a `next` token. */
const MAX_PAGES = 200;

/** Builds the API over one `ShortcutClient`. */
export function createTrackerBApi(options: TrackerBApiOptions): TrackerBApi {
  const client = new ShortcutClient(options.token, {
    // The client's default is the public API; a base ending in /api/v3 would double the SDK's own prefix.
    ...(options.baseUrl === undefined
      ? {}
      : { baseURL: options.baseUrl.replace(/\/+$/, "").replace(/\/api\/v3$/, "") }),
    timeout: options.timeoutMs,
  });
  const call = <T>(what: string, ctx: PollContext, run: (signal: AbortSignal) => Promise<{ data: T }>) =>
    withRetryAfter(what, async () => (await run(ctx.signal)).data, options.rateLimit, ctx);

  return {
    listWorkflows: (ctx) => call("GET /api/v3/workflows", ctx, (signal) => client.listWorkflows({ signal })),
    listMembers: (ctx) => call("GET /api/v3/members", ctx, (signal) => client.listMembers({}, { signal })),
    listLabels: (ctx) => call("GET /api/v3/labels", ctx, (signal) => client.listLabels({ slim: true }, { signal })),
    async searchStories(query, ctx) {
      const stories: StorySearchResult[] = [];
      const seen = new Set<string>();
      let next: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const what = `GET /api/v3/search/stories (page ${page + 1})`;
        // "full" carries descriptions, which the tickets need; "slim" would cost one more request per story.
        const result = await call(what, ctx, (signal) =>
          client.searchStories(
            { query, page_size: options.pageSize, detail: "full", ...(next === undefined ? {} : { next }) },
            { signal },
          ),
        );
        stories.push(...result.data);
        next = nextToken(result.next);
        if (next === undefined) return stories;
        if (seen.has(next))
          throw new TrackerBApiError(
            what,
            undefined,
            `tracker B repeated the page token ${next} for ${query}`,
            "polling tries again later; report it if it persists",
          );
        seen.add(next);
      }
      throw new TrackerBApiError(
        "GET /api/v3/search/stories",
        undefined,
        `tracker B returned more than ${MAX_PAGES} pages for ${query}`,
        "narrow the trigger state: move stories that wait elsewhere out of it",
      );
    },
    getStory: (id, ctx) => call(`GET /api/v3/stories/${id}`, ctx, (signal) => client.getStory(id, { signal })),
    async moveStory(id, workflowStateId, ctx) {
      await call(`PUT /api/v3/stories/${id}`, ctx, (signal) =>
        client.updateStory(id, { workflow_state_id: workflowStateId }, { signal }),
      );
    },
    async addComment(id, text, externalId, ctx) {
      await call(`POST /api/v3/stories/${id}/comments`, ctx, (signal) =>
        client.createStoryComment(id, { text, external_id: externalId }, { signal }),
      );
    },
  };
}

/**
 * The token of a search's `next`: the API answers with the path and query
 * of the next page (`/api/v3/search/stories?query=...&next=TOKEN`), the
 * SDK takes the token alone.
 */
export function nextToken(next: string | null | undefined): string | undefined {
  if (next === undefined || next === null || next === "") return undefined;
  const at = next.indexOf("?");
  if (at === -1) return next;
  return new URLSearchParams(next.slice(at + 1)).get("next") ?? undefined;
}
