import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { FakeRepository } from "./fake-repository.js";
import { type RouteAnswer, route } from "./fake-routes.js";

/** A route of another file: its answer, or undefined when the request is not its. */
export type ExtraRoute = (req: {
  method: string;
  url: URL;
  raw: string;
  headers: IncomingMessage["headers"];
  api: string;
}) => RouteAnswer | undefined;

/** Something the fake does to the next matching requests instead of answering them. */
export type Fault =
  | { kind: "error"; status: number; message?: string }
  | { kind: "hang" }
  | { kind: "secondary"; status: 403 | 429; retryAfter: number };

/** One request as the fake saw it. */
export interface SeenRequest {
  method: string;
  /** Path and query. */
  path: string;
  status: number;
  /** Sent with If-None-Match. */
  conditional: boolean;
  /** Epoch ms when it arrived. */
  at: number;
}

/** The primary rate limit of the token (x-ratelimit-*). */
export interface Quota {
  limit: number;
  remaining: number;
  /** Epoch seconds. */
  reset: number;
}

/** A strict local stand-in for code host A's REST API (the GitHub v3 shapes), on 127.0.0.1. */
export interface FakeCodehostA {
  /** Base URL for `api_base_url`. */
  url: string;
  token: string;
  repo: FakeRepository;
  requests: SeenRequest[];
  /** "METHOD /path?query" of every authenticated request as it arrived, answered or not (a hanging one too). */
  arrived: string[];
  quota: Quota;
  /** Largest page the fake serves (the real one: 100), so tests can see pagination with few issues. */
  maxPerPage: number;
  /** The next `times` requests matching `match` ("METHOD /path?query") get `fault`. */
  inject(fault: Fault, options?: { times?: number; match?: RegExp }): void;
  /**
   * Routes of other files (pull requests, App installation tokens), tried in
   * order before the fake's own authentication: each checks its own.
   */
  routes: ExtraRoute[];
  /** Spends the quota: answers 403 (x-ratelimit-remaining: 0) until `resetInSeconds` from now. */
  exhaustQuota(resetInSeconds: number): void;
  close(): Promise<void>;
}

const DOCS = "https://docs.github.com/rest";
const ERROR_MESSAGES: Record<number, string> = {
  403: "Resource not accessible by personal access token",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

/**
 * Starts the fake with a repository `owner/name` that has `labels`. It takes `token` only, or the tokens
 * `accepts` takes (a GitHub App's installation tokens).
 */
export async function startFakeCodehostA(
  options: {
    owner?: string;
    name?: string;
    labels?: string[];
    token?: string;
    accepts?: (token: string) => boolean;
  } = {},
): Promise<FakeCodehostA> {
  const repo = new FakeRepository(
    options.owner ?? "acme",
    options.name ?? "shop",
    options.labels ?? ["agent", "bug", "wontfix", "agent-in-progress", "agent-failed"],
  );
  const token = options.token ?? "ghp_fake_token_0123456789";
  const faults: Array<{ fault: Fault; times: number; match: RegExp | undefined }> = [];
  const quota: Quota = { limit: 5000, remaining: 5000, reset: nowSeconds() + 3600 };
  const requests: SeenRequest[] = [];
  const arrived: string[] = [];
  const fake = { repo, token, requests, arrived, quota, maxPerPage: 100, routes: [] } as unknown as FakeCodehostA;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const conditional = req.headers["if-none-match"] !== undefined;
    const at = Date.now();
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      requests.push({ method, path, status, conditional, at });
      const text = status === 304 || body === undefined ? "" : JSON.stringify(body);
      res.writeHead(status, {
        ...rateHeaders(quota),
        ...(text === "" ? {} : { "content-type": "application/json; charset=utf-8" }),
        ...headers,
      });
      res.end(text);
    };
    const raw = await readBody(req);
    // GitHub refuses requests without a User-Agent before anything else.
    if (req.headers["user-agent"] === undefined)
      return send(403, {
        message: "Request forbidden by administrative rules. Please make sure your request has a User-Agent header",
        documentation_url: DOCS,
      });
    for (const extra of fake.routes) {
      const answer = extra({ method, url: new URL(path, fake.url), raw, headers: req.headers, api: fake.url });
      if (answer !== undefined) return send(answer.status, answer.body, answer.headers);
    }
    const auth = /^(?:token|bearer)\s+(.+)$/i.exec(req.headers.authorization ?? "");
    if (auth === null) return send(401, { message: "Requires authentication", documentation_url: DOCS, status: "401" });
    if (!(options.accepts?.(auth[1] ?? "") ?? auth[1] === token))
      return send(401, { message: "Bad credentials", documentation_url: DOCS, status: "401" });
    arrived.push(`${method} ${path}`);
    const faultAt = faults.findIndex((f) => f.match === undefined || f.match.test(`${method} ${path}`));
    const injected = faultAt < 0 ? undefined : faults[faultAt];
    if (injected !== undefined) {
      if (--injected.times <= 0) faults.splice(faultAt, 1);
      const { fault } = injected;
      if (fault.kind === "hang") return; // never answered; close() cuts the connection
      if (fault.kind === "error")
        return send(fault.status, {
          message: fault.message ?? ERROR_MESSAGES[fault.status] ?? "Server Error",
          documentation_url: DOCS,
          status: String(fault.status),
        });
      return send(
        fault.status,
        {
          message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
          documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits`,
          status: String(fault.status),
        },
        { "retry-after": String(fault.retryAfter) },
      );
    }
    if (nowSeconds() >= quota.reset) Object.assign(quota, { remaining: quota.limit, reset: nowSeconds() + 3600 });
    if (quota.remaining <= 0)
      return send(403, {
        message: "API rate limit exceeded for user ID 1.",
        documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api`,
        status: "403",
      });
    const url = new URL(path, fake.url);
    const answer = route(repo, { method, url, raw, api: fake.url, maxPerPage: fake.maxPerPage });
    if (answer.status === 200 && method === "GET") {
      const etag = `W/"${createHash("sha256")
        .update(JSON.stringify(answer.body))
        .update(answer.headers?.link ?? "")
        .digest("hex")}"`;
      // A conditional request answered 304 costs nothing against the quota.
      if (req.headers["if-none-match"] === etag) return send(304, undefined, { etag });
      quota.remaining--;
      return send(200, answer.body, { ...answer.headers, etag });
    }
    quota.remaining--;
    return send(answer.status, answer.body, answer.headers);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: `fake failed: ${String(error)}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.inject = (fault, { times = 1, match } = {}) => {
    faults.push({ fault, times, match });
  };
  fake.exhaustQuota = (resetInSeconds) => {
    Object.assign(quota, { remaining: 0, reset: nowSeconds() + resetInSeconds });
  };
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

function rateHeaders(quota: Quota): Record<string, string> {
  return {
    "x-ratelimit-limit": String(quota.limit),
    "x-ratelimit-remaining": String(Math.max(0, quota.remaining)),
    "x-ratelimit-reset": String(quota.reset),
    "x-ratelimit-used": String(quota.limit - Math.max(0, quota.remaining)),
    "x-ratelimit-resource": "core",
  };
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
