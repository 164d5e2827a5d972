import type { Ticket } from "@errand/channel-sdk";
import { RUN_STATES, type RunState, type TaskRun } from "../runs/task-run.js";
import type { RunCursor, RunFilter, Store } from "../store/store.js";
import type { Caller } from "./console-auth.js";
import { html } from "./html.js";
import { layout } from "./layout.js";
import { stateBadge, when } from "./page-bits.js";

/** Runs on one page of the list. */
export const PAGE_SIZE = 50;

/** The list's filters as the query string carries them (`state`, `source`, `repo`, `cursor`). */
export interface RunsQuery {
  state: string;
  source: string;
  repo: string;
  cursor: RunCursor | undefined;
}

/** Reads the list's query; unknown states and malformed cursors are dropped rather than refused. */
export function runsQuery(params: URLSearchParams): RunsQuery {
  const cursor = /^(\d{1,15})\.(run_[a-z0-9]{1,40})$/.exec(params.get("cursor") ?? "");
  const state = params.get("state") ?? "";
  return {
    state: (RUN_STATES as readonly string[]).includes(state) ? state : "",
    source: (params.get("source") ?? "").trim(),
    repo: (params.get("repo") ?? "").trim(),
    cursor: cursor ? { createdAt: Number(cursor[1]), id: cursor[2] as string } : undefined,
  };
}

/** `/console/runs`: the runs, newest first, filtered, a page at a time (keyset paging: any depth costs the same). */
export async function runsPage(store: Store, caller: Caller, query: RunsQuery): Promise<string> {
  const filter: RunFilter = {
    limit: PAGE_SIZE + 1,
    ...(query.state === "" ? {} : { states: [query.state as RunState] }),
    ...(query.source === "" ? {} : { source: query.source }),
    ...(query.repo === "" ? {} : { repo: query.repo }),
    ...(query.cursor === undefined ? {} : { before: query.cursor }),
  };
  const found = await store.listRuns(filter);
  const runs = found.slice(0, PAGE_SIZE);
  const tickets = await Promise.all(runs.map((r) => store.getTicket(r.ticket)));
  const last = runs.at(-1);
  const more = found.length > PAGE_SIZE && last !== undefined;
  const params = (cursor?: RunCursor) => {
    const p = new URLSearchParams();
    for (const key of ["state", "source", "repo"] as const) if (query[key] !== "") p.set(key, query[key]);
    if (cursor) p.set("cursor", `${cursor.createdAt}.${cursor.id}`);
    return `/console/runs?${p.toString()}`;
  };
  const body = html`<h1>Runs</h1>
${filters(query)}
<table class="runs">
<thead><tr><th>Run</th><th>State</th><th>Ticket</th><th>Source</th><th>Repository</th><th>Attempt</th><th>Created</th></tr></thead>
<tbody>
${runs.map((run, i) => row(run, tickets[i]))}
</tbody>
</table>
${runs.length === 0 ? html`<p class="muted">No runs${query.cursor ? " past this point" : " match these filters"}.</p>` : ""}
<p>
${query.cursor ? html`<a href="${params()}">Newest</a>` : ""}
${more ? html`<a href="${params({ createdAt: last.createdAt, id: last.id })}" rel="next">Older</a>` : ""}
</p>`;
  return layout("Runs", caller, body);
}

function filters(query: RunsQuery) {
  const states = [
    "",
    ...RUN_STATES,
    ...(RUN_STATES.includes("AwaitingApproval" as RunState) ? [] : ["AwaitingApproval"]),
  ];
  return html`<form class="filters" method="get" action="/console/runs">
  <label>State <select name="state">
    ${states.map((s) => html`<option value="${s}"${s === query.state ? html` selected` : ""}>${s === "" ? "any" : s}</option>`)}
  </select></label>
  <label>Source <input name="source" value="${query.source}" placeholder="any"></label>
  <label>Repository <input name="repo" value="${query.repo}" placeholder="any" size="40"></label>
  <button>Filter</button>
</form>`;
}

function row(run: TaskRun, ticket: Ticket | undefined) {
  return html`<tr>
  <td><a href="/console/runs/${run.id}">${run.id}</a></td>
  <td>${stateBadge(run.state)}</td>
  <td class="title">${ticket?.title ?? run.ticket.id}</td>
  <td>${run.ticket.source}</td>
  <td>${ticket?.repoUrl ?? ""}</td>
  <td>${run.attempt}</td>
  <td>${when(run.createdAt)}</td>
</tr>`;
}
