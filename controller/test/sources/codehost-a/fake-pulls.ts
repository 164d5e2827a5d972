import type { ExtraRoute } from "./fake-codehost-a.js";
import type { RouteAnswer } from "./fake-routes.js";

/** A pull request as the fake keeps it. */
export interface FakePull {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  draft: boolean;
  state: "open" | "closed";
  html_url: string;
}

/** The pull requests of one repository, and the route that serves them. */
export interface FakePulls {
  readonly pulls: FakePull[];
  /** Tokens seen on pull request calls (to check which credential was used). */
  readonly tokens: string[];
  /** Set: the next creations are answered with this status (403: the token may not write pull requests). */
  refuseCreate: number | undefined;
  readonly route: ExtraRoute;
}

const DOCS = "https://docs.github.com/rest/pulls/pulls";

/**
 * `GET` and `POST /repos/{owner}/{repo}/pulls`, and `GET .../pulls/{number}`, in the vendor's shapes:
 * 401 for a token `accepts` refuses, 404 for another repository, 422 for a
 * missing field, a head branch the repository does not have
 * (`branchExists`), or a second open pull request of the same head.
 */
export function createFakePulls(options: {
  owner: string;
  repo: string;
  accepts: (token: string) => boolean;
  branchExists: (branch: string) => boolean;
}): FakePulls {
  const pulls: FakePull[] = [];
  const tokens: string[] = [];
  const route: ExtraRoute = (req) => {
    const p = req.url.pathname.split("/");
    if (p[1] !== "repos" || p[4] !== "pulls" || (p.length !== 5 && p.length !== 6)) return undefined;
    const token = /^(?:token|bearer)\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1];
    if (token === undefined || !options.accepts(token))
      return { status: 401, body: { message: "Bad credentials", documentation_url: DOCS, status: "401" } };
    tokens.push(token);
    if (p[2] !== options.owner || p[3] !== options.repo)
      return { status: 404, body: { message: "Not Found", documentation_url: DOCS, status: "404" } };
    if (req.method === "GET" && p.length === 6) return one(pulls, Number(p[5]));
    if (p.length === 6) return { status: 404, body: { message: "Not Found", documentation_url: DOCS, status: "404" } };
    if (req.method === "GET") return list(pulls, req.url);
    if (req.method === "POST" && fake.refuseCreate !== undefined)
      return {
        status: fake.refuseCreate,
        body: {
          message: "Resource not accessible by integration",
          documentation_url: DOCS,
          status: String(fake.refuseCreate),
        },
      };
    if (req.method === "POST") return create(pulls, req.raw, options, req.api);
    return { status: 404, body: { message: "Not Found", documentation_url: DOCS, status: "404" } };
  };
  const fake: FakePulls = { pulls, tokens, refuseCreate: undefined, route };
  return fake;
}

function one(pulls: FakePull[], number: number): RouteAnswer {
  const pr = pulls.find((p) => p.number === number);
  if (pr === undefined) return { status: 404, body: { message: "Not Found", documentation_url: DOCS, status: "404" } };
  return { status: 200, body: toJson(pr) };
}

function list(pulls: FakePull[], url: URL): RouteAnswer {
  const state = url.searchParams.get("state") ?? "open";
  const head = url.searchParams.get("head");
  const found = pulls.filter(
    (pr) => (state === "all" || pr.state === state) && (head === null || head.split(":")[1] === pr.head),
  );
  return { status: 200, body: found.map(toJson) };
}

function create(
  pulls: FakePull[],
  raw: string,
  options: { owner: string; repo: string; branchExists: (b: string) => boolean },
  api: string,
): RouteAnswer {
  const body = JSON.parse(raw) as Partial<Record<string, unknown>>;
  for (const field of ["title", "head", "base"])
    if (typeof body[field] !== "string" || body[field] === "") return invalid("missing_field", field);
  const head = String(body.head);
  if (!options.branchExists(head) || !options.branchExists(String(body.base))) return invalid("invalid", "head");
  if (pulls.some((pr) => pr.head === head && pr.state === "open"))
    return {
      status: 422,
      body: {
        message: "Validation Failed",
        errors: [
          {
            resource: "PullRequest",
            code: "custom",
            message: `A pull request already exists for ${options.owner}:${head}.`,
          },
        ],
        documentation_url: `${DOCS}#create-a-pull-request`,
        status: "422",
      },
    };
  const number = pulls.length + 1;
  const pr: FakePull = {
    number,
    title: String(body.title),
    body: typeof body.body === "string" ? body.body : "",
    head,
    base: String(body.base),
    draft: body.draft === true,
    state: "open",
    html_url: `https://codehost-a.test/${options.owner}/${options.repo}/pull/${number}`,
  };
  pulls.push(pr);
  return { status: 201, body: { ...toJson(pr), url: `${api}/repos/${options.owner}/${options.repo}/pulls/${number}` } };
}

function toJson(pr: FakePull): Record<string, unknown> {
  return {
    number: pr.number,
    state: pr.state,
    title: pr.title,
    body: pr.body,
    draft: pr.draft,
    html_url: pr.html_url,
    head: { ref: pr.head },
    base: { ref: pr.base },
  };
}

function invalid(code: string, field: string): RouteAnswer {
  return {
    status: 422,
    body: {
      message: "Validation Failed",
      errors: [{ resource: "PullRequest", field, code }],
      documentation_url: `${DOCS}#create-a-pull-request`,
      status: "422",
    },
  };
}
