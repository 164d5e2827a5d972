import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

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
export async function startCodehostStandIn(options: {
  owner: string;
  repo: string;
  token: string;
  branchExists: (branch: string) => boolean;
}): Promise<CodehostStandIn> {
  const pulls: StandInPull[] = [];
  const comments: StandInComment[] = [];
  const prefix = `/repos/${options.owner}/${options.repo}/`;
  let web = "";

  const answer = (method: string, url: URL, body: Record<string, unknown> | undefined): Answer => {
    if (!url.pathname.startsWith(prefix)) return fail(404, "Not Found");
    const rest = url.pathname.slice(prefix.length).split("/");
    const key = `${method} ${rest.map((p) => (/^\d+$/.test(p) ? "N" : p)).join("/")}`;
    if (key === "GET pulls") {
      const head = url.searchParams.get("head")?.split(":")[1];
      return { status: 200, body: pulls.filter((p) => head === undefined || p.head === head).map(pullJson) };
    }
    if (key === "GET pulls/N") {
      const pull = pulls.find((p) => p.number === Number(rest[1]));
      return pull === undefined ? fail(404, "Not Found") : { status: 200, body: pullJson(pull) };
    }
    if (body === undefined && method !== "GET") return fail(400, "Problems parsing JSON");
    if (key === "POST pulls") return createPull(body ?? {});
    if (key === "POST issues/N/comments" && typeof body?.body === "string" && body.body !== "") {
      const comment = { id: 1000 + comments.length, issue: Number(rest[1]), body: body.body };
      comments.push(comment);
      return { status: 201, body: commentJson(comment) };
    }
    if (key === "PATCH issues/comments/N" && typeof body?.body === "string" && body.body !== "") {
      const comment = comments.find((c) => c.id === Number(rest[2]));
      if (comment === undefined) return fail(404, "Not Found");
      comment.body = body.body;
      return { status: 200, body: commentJson(comment) };
    }
    if (key.endsWith("comments/N") || key.endsWith("comments")) return fail(422, "Validation Failed: body is missing");
    return fail(404, "Not Found");
  };

  const createPull = (body: Record<string, unknown>): Answer => {
    for (const field of ["title", "head", "base"])
      if (typeof body[field] !== "string" || body[field] === "") return fail(422, `Validation Failed: ${field}`);
    const head = String(body.head);
    if (!options.branchExists(head)) return fail(422, `Validation Failed: head ${head} does not exist`);
    if (pulls.some((p) => p.head === head))
      return fail(422, `A pull request already exists for ${options.owner}:${head}.`);
    const number = pulls.length + 1;
    const html_url = `${web}/${options.owner}/${options.repo}/pull/${number}`;
    const pull = {
      number,
      title: String(body.title),
      head,
      base: String(body.base),
      draft: body.draft === true,
      html_url,
    };
    pulls.push(pull);
    return { status: 201, body: pullJson(pull) };
  };

  const commentJson = (c: StandInComment) => ({
    id: c.id,
    body: c.body,
    html_url: `${web}/${options.owner}/${options.repo}/issues/${c.issue}#issuecomment-${c.id}`,
  });

  const server = createServer((req, res) => {
    void readJson(req).then((body) => {
      const auth = /^(?:token|bearer)\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1];
      if (auth !== options.token) return reply(res, fail(401, "Bad credentials"));
      reply(res, answer(req.method ?? "GET", new URL(req.url ?? "/", web), body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  web = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: web,
    pulls,
    comments,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
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

/** The request's JSON object; undefined for no body or one that is not a JSON object. */
function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        const value: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        resolve(typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined);
      } catch {
        resolve(undefined);
      }
    });
    req.on("error", () => resolve(undefined));
  });
}
