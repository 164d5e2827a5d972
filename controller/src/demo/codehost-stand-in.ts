import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readJson } from "./read-json.js";

/** A pull request the stand-in keeps. */
export interface StandInPull {
  number: number;
  title: string;
  head: string;
  base: string;
  draft: boolean;
  html_url: string;
}

/** A comment on an issue (the controller's progress comment). */
export interface StandInComment {
  id: number;
  issue: number;
  body: string;
}

/** The demo's local stand-in for code host A's REST API, for one repository. */
export interface CodehostStandIn {
  /** Base URL for `repositories.codehost_a.api_base_url`; web pages are under it too. */
  readonly url: string;
  readonly pulls: StandInPull[];
  readonly comments: StandInComment[];
  close(): Promise<void>;
}

/** What {@link startCodehostStandIn} serves. */
export interface StandInOptions {
  owner: string;
  repo: string;
  /** The only credential it accepts. */
  token: string;
  /** True when the git server has the branch (a pull request's head must exist). */
  branchExists: (branch: string) => boolean;
}

interface State extends StandInOptions {
  pulls: StandInPull[];
  comments: StandInComment[];
  /** Its own base URL: the web pages' too. */
  web: string;
}

type Answer = { status: number; body: unknown };
const DOCS = "https://docs.github.com/rest";
const fail = (status: number, message: string): Answer => ({ status, body: { message, documentation_url: DOCS } });

/**
 * Starts the stand-in on 127.0.0.1 for `owner/repo`. It answers the calls
 * the controller makes, in the vendor's shapes: pull requests (list by head,
 * create, get) and issue comments (create, edit). It is strict where the
 * real one is: a request without `token`/`Bearer` auth equal to `token` is
 * 401, an unknown path 404, a pull request whose head branch was never
 * pushed (`branchExists`) or a second open one for a head 422.
 */
export async function startCodehostStandIn(options: StandInOptions): Promise<CodehostStandIn> {
  const state: State = { ...options, pulls: [], comments: [], web: "" };
  const server = createServer((req, res) => {
    void readJson(req).then((body) => {
      const auth = /^(?:token|bearer)\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1];
      if (auth !== options.token) return reply(res, fail(401, "Bad credentials"));
      reply(res, answer(state, req.method ?? "GET", new URL(req.url ?? "/", state.web), body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.web = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: state.web,
    pulls: state.pulls,
    comments: state.comments,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The answer to one authenticated request. */
function answer(state: State, method: string, url: URL, body: Record<string, unknown> | undefined): Answer {
  const prefix = `/repos/${state.owner}/${state.repo}/`;
  if (!url.pathname.startsWith(prefix)) return fail(404, "Not Found");
  const rest = url.pathname.slice(prefix.length).split("/");
  const key = `${method} ${rest.map((p) => (/^\d+$/.test(p) ? "N" : p)).join("/")}`;
  const { pulls, comments } = state;
  if (key === "GET pulls") {
    const head = url.searchParams.get("head")?.split(":")[1];
    return { status: 200, body: pulls.filter((p) => head === undefined || p.head === head).map(pullJson) };
  }
  if (key === "GET pulls/N") {
    const pull = pulls.find((p) => p.number === Number(rest[1]));
    return pull === undefined ? fail(404, "Not Found") : { status: 200, body: pullJson(pull) };
  }
  if (body === undefined && method !== "GET") return fail(400, "Problems parsing JSON");
  if (key === "POST pulls") return createPull(state, body ?? {});
  if (key === "POST issues/N/comments" && typeof body?.body === "string" && body.body !== "") {
    const comment = { id: 1000 + comments.length, issue: Number(rest[1]), body: body.body };
    comments.push(comment);
    return { status: 201, body: commentJson(state, comment) };
  }
  if (key === "PATCH issues/comments/N" && typeof body?.body === "string" && body.body !== "") {
    const comment = comments.find((c) => c.id === Number(rest[2]));
    if (comment === undefined) return fail(404, "Not Found");
    comment.body = body.body;
    return { status: 200, body: commentJson(state, comment) };
  }
  if (key.endsWith("comments/N") || key.endsWith("comments")) return fail(422, "Validation Failed: body is missing");
  return fail(404, "Not Found");
}

function createPull(state: State, body: Record<string, unknown>): Answer {
  for (const field of ["title", "head", "base"])
    if (typeof body[field] !== "string" || body[field] === "") return fail(422, `Validation Failed: ${field}`);
  const head = String(body.head);
  if (!state.branchExists(head)) return fail(422, `Validation Failed: head ${head} does not exist`);
  if (state.pulls.some((p) => p.head === head))
    return fail(422, `A pull request already exists for ${state.owner}:${head}.`);
  const number = state.pulls.length + 1;
  const html_url = `${state.web}/${state.owner}/${state.repo}/pull/${number}`;
  const pull = {
    number,
    title: String(body.title),
    head,
    base: String(body.base),
    draft: body.draft === true,
    html_url,
  };
  state.pulls.push(pull);
  return { status: 201, body: pullJson(pull) };
}

function commentJson(state: State, c: StandInComment): Record<string, unknown> {
  return {
    id: c.id,
    body: c.body,
    html_url: `${state.web}/${state.owner}/${state.repo}/issues/${c.issue}#issuecomment-${c.id}`,
  };
}

function pullJson(p: StandInPull): Record<string, unknown> {
  return {
    number: p.number,
    state: "open",
    title: p.title,
    draft: p.draft,
    html_url: p.html_url,
    head: { ref: p.head },
    base: { ref: p.base },
  };
}

function reply(res: ServerResponse, a: Answer): void {
  res.writeHead(a.status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(a.body));
}
