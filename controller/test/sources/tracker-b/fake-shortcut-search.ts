import type { FakeStory } from "./fake-shortcut-data.js";

/** One page of GET /api/v3/search/stories, or why the request is refused (400). */
export type SearchAnswer =
  | { total: number; next: string | null; stories: FakeStory[]; detail: "full" | "slim" }
  | { error: string };

/**
 * The search endpoint, strictly: `query` is required, `page_size` is 1 to
 * 250 (default 25), `detail` is `full` or `slim` (default full), a `next`
 * token belongs to the query it was issued for. The query language knows
 * the operators the controller uses: `state:"Name"` (matched without regard
 * to case, as the real search does) and `!is:archived`; anything else is
 * refused, so the adapter cannot lean on operators the fake does not model.
 * The answer's `next` is the path and query of the next page.
 */
export function searchPage(params: URLSearchParams, all: FakeStory[], stateName: (id: number) => string): SearchAnswer {
  const query = params.get("query");
  if (query === null || query === "") return { error: "query is required" };
  const size = Number(params.get("page_size") ?? "25");
  if (!Number.isInteger(size) || size < 1 || size > 250) return { error: "page_size must be from 1 to 250" };
  const detail = params.get("detail") ?? "full";
  if (detail !== "full" && detail !== "slim") return { error: "detail must be full or slim" };
  const filter = parseQuery(query);
  if (typeof filter === "string") return { error: filter };
  let offset = 0;
  const token = params.get("next");
  if (token !== null) {
    const decoded = decodeToken(token);
    if (decoded === undefined || decoded.query !== query) return { error: "next is not a page token of this query" };
    offset = decoded.offset;
  }
  const matching = all
    .filter(
      (s) =>
        (filter.state === undefined || stateName(s.workflow_state_id).toLowerCase() === filter.state.toLowerCase())
        && (!filter.notArchived || !s.archived),
    )
    .sort((a, b) => a.id - b.id);
  const stories = matching.slice(offset, offset + size);
  const more = offset + size < matching.length;
  const next = more
    ? `/api/v3/search/stories?${new URLSearchParams({ query, page_size: String(size), detail, next: encodeToken({ query, offset: offset + size }) })}`
    : null;
  return { total: matching.length, next, stories, detail };
}

function parseQuery(query: string): { state: string | undefined; notArchived: boolean } | string {
  const filter = { state: undefined as string | undefined, notArchived: false };
  const terms = query.match(/\S+:"[^"]*"|\S+/g) ?? [];
  for (const term of terms) {
    const state = /^state:(?:"([^"]*)"|(\S+))$/.exec(term);
    if (state) filter.state = state[1] ?? state[2];
    else if (term === "!is:archived" || term === "-is:archived") filter.notArchived = true;
    else return `the fake does not model the search term ${term}`;
  }
  return filter;
}

function encodeToken(value: { query: string; offset: number }): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

function decodeToken(token: string): { query: string; offset: number } | undefined {
  try {
    const value = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { query?: unknown; offset?: unknown };
    return typeof value.query === "string" && typeof value.offset === "number"
      ? { query: value.query, offset: value.offset }
      : undefined;
  } catch {
    return undefined;
  }
}
