import { editCommentRoute } from "./fake-comments.js";
import { type FakeIssue, type FakeRepository, REPO_ID } from "./fake-repository.js";
import { reviewRoute } from "./fake-reviews.js";

/** A request after authentication and limits. */
export interface RouteRequest {
  method: string;
  url: URL;
  raw: string;
  /** The fake's base URL, for the `url` fields and Link headers. */
  api: string;
  maxPerPage: number;
}

export interface RouteAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const DOCS = "https://docs.github.com/rest";
const notFound = (docs = DOCS): RouteAnswer => ({
  status: 404,
  body: { message: "Not Found", documentation_url: docs, status: "404" },
});
const invalid = (resource: string, field: string, code = "missing_field"): RouteAnswer => ({
  status: 422,
  body: { message: "Validation Failed", errors: [{ resource, field, code }], documentation_url: DOCS, status: "422" },
});

/** Code host A's REST routes that the adapter uses, with the real paths, parameters and error answers. */
export function route(repo: FakeRepository, req: RouteRequest): RouteAnswer {
  const { method, url } = req;
  const p = url.pathname.split("/").map(decodeURIComponent);
  const isRepo =
    (p[1] === "repos"
      && p[2]?.toLowerCase() === repo.owner.toLowerCase()
      && p[3]?.toLowerCase() === repo.name.toLowerCase())
    || (p[1] === "repositories" && p[2] === String(REPO_ID));
  const rest = p[1] === "repos" ? p.slice(4) : p.slice(3);
  if (method === "GET" && p[1] === "users" && p[3] === "repos" && p.length === 4) {
    if (p[2]?.toLowerCase() !== repo.owner.toLowerCase()) return notFound();
    return {
      status: 200,
      body: [repo.name, ...repo.siblings].sort().map((name) => ({
        name,
        full_name: `${repo.owner}/${name}`,
        html_url: `https://codehost-a.test/${repo.owner}/${name}`,
      })),
    };
  }
  if (p[1] === "repos" && !isRepo) return notFound(`${DOCS}/repos/repos#get-a-repository`);
  if (!isRepo) return notFound();
  const reviews = reviewRoute(repo, req, rest, page);
  if (reviews !== undefined) return reviews;
  if (method === "GET" && rest.length === 0) return { status: 200, body: repo.repoJson(req.api) };
  if (!repo.hasIssues && rest[0] === "issues")
    return {
      status: 410,
      body: { message: "Issues are disabled for this repo", documentation_url: DOCS, status: "410" },
    };
  if (method === "GET" && rest.length === 1 && rest[0] === "labels")
    return page(
      req,
      repo.labels.map((l) => repo.labelJson(req.api, l)),
    );
  if (method === "GET" && rest.length === 1 && rest[0] === "issues") return listIssues(repo, req);
  const edited = editCommentRoute(repo, req, rest);
  if (edited !== undefined) return edited;
  if (rest[0] !== "issues" || rest[1] === undefined || !/^\d+$/.test(rest[1])) return notFound();
  const issue = repo.issues.get(Number(rest[1]));
  if (issue === undefined) return notFound(`${DOCS}/issues`);
  const tail = rest.slice(2);
  if (tail[0] === "labels") return labels(repo, issue, req, tail[1]);
  if (tail[0] === "comments" && tail.length === 1) {
    if (method === "GET")
      return page(
        req,
        issue.comments.map((c) => repo.commentJson(req.api, issue, c)),
      );
    if (method === "POST") {
      const body = parse(req.raw) as { body?: unknown } | undefined;
      if (body === undefined)
        return { status: 400, body: { message: "Problems parsing JSON", documentation_url: DOCS, status: "400" } };
      if (typeof body.body !== "string" || body.body === "") return invalid("IssueComment", "body");
      return { status: 201, body: repo.commentJson(req.api, issue, repo.comment(issue, body.body)) };
    }
  }
  return notFound();
}

function listIssues(repo: FakeRepository, req: RouteRequest): RouteAnswer {
  const q = req.url.searchParams;
  const state = q.get("state") ?? "open";
  const wanted = (q.get("labels") ?? "")
    .split(",")
    .map((l) => l.trim().toLowerCase())
    .filter(Boolean);
  const issues = [...repo.issues.values()]
    .filter((i) => state === "all" || i.state === state)
    // The host matches labels without regard to case, and an issue must carry all of them.
    .filter((i) => wanted.every((w) => i.labels.some((l) => l.toLowerCase() === w)))
    .sort((a, b) => b.number - a.number);
  return page(
    req,
    issues.map((i) => repo.issueJson(req.api, i)),
    `/repositories/${REPO_ID}/issues`,
  );
}

function labels(repo: FakeRepository, issue: FakeIssue, req: RouteRequest, name: string | undefined): RouteAnswer {
  const current = () => ({ status: 200, body: issue.labels.map((l) => repo.labelJson(req.api, l)) });
  if (req.method === "POST" && name === undefined) {
    const body = parse(req.raw) as { labels?: unknown } | unknown[] | undefined;
    const names = Array.isArray(body) ? body : body?.labels;
    if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === "string" && n !== ""))
      return invalid("Label", "labels", "invalid");
    for (const n of names as string[]) repo.addLabel(issue, n);
    return current();
  }
  if (req.method === "DELETE" && name !== undefined) {
    if (!repo.removeLabel(issue, name))
      return {
        status: 404,
        body: {
          message: "Label does not exist",
          documentation_url: `${DOCS}/issues/labels#remove-a-label-from-an-issue`,
          status: "404",
        },
      };
    return current();
  }
  if (req.method === "GET" && name === undefined) return current();
  return notFound();
}

/** One page of `items` (per_page, default 30, at most the fake's maximum; page from 1) with the host's Link header. */
function page(req: RouteRequest, items: unknown[], linkPath = req.url.pathname): RouteAnswer {
  const q = req.url.searchParams;
  const perPage = Math.min(req.maxPerPage, Math.max(1, Number(q.get("per_page") ?? 30) || 30));
  const number = Math.max(1, Number(q.get("page") ?? 1) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const link = (n: number, rel: string) => {
    const next = new URLSearchParams(q);
    next.set("page", String(n));
    return `<${req.api}${linkPath}?${next.toString()}>; rel="${rel}"`;
  };
  const links = [
    ...(number > 1 ? [link(number - 1, "prev"), link(1, "first")] : []),
    ...(number < last ? [link(number + 1, "next"), link(last, "last")] : []),
  ];
  return {
    status: 200,
    body: items.slice((number - 1) * perPage, number * perPage),
    headers: links.length > 0 ? { link: links.join(", ") } : {},
  };
}

function parse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
