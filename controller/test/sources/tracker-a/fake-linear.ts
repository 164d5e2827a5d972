import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { LinearDocument } from "@linear/sdk";
import { FakeInputError } from "./fake-filters.js";
import { FakeNotFound, resolveOperation } from "./fake-resolvers.js";
import { FakeWorkspace } from "./fake-workspace.js";
import { type ParsedDocument, parseDocument, project } from "./graphql-document.js";

/** How the next requests fail: a 500 with the API's error body, a proxy's 502 page, a bare 429, no answer at all, a dropped connection. */
export type FailMode = "500" | "502" | "429" | "hang" | "reset";

/** One request the fake answered. */
export interface SeenRequest {
  operation: string;
  variables: Record<string, unknown>;
  status: number;
}

interface Budget {
  limit: number;
  remaining: number;
  resetAt: number;
}

/** A strict stand-in for tracker A's GraphQL API on 127.0.0.1. */
export interface FakeLinear {
  /** The GraphQL endpoint, for `api_base_url`. */
  readonly url: string;
  readonly token: string;
  readonly ws: FakeWorkspace;
  readonly requests: SeenRequest[];
  /** The next `count` requests fail as `mode` (a 429 sends Retry-After: `retryAfterSeconds`). */
  fail(count: number, mode: FailMode, retryAfterSeconds?: number): void;
  /** Spends a budget (`requests` or `complexity`) until `resetInMs` from now: requests get RATELIMITED until then. */
  exhaust(budget: "requests" | "complexity", resetInMs: number): void;
  close(): Promise<void>;
}

const HOUR = 3_600_000;
const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };

/**
 * Serves only the documents `@linear/sdk` itself sends (the query text must
 * equal the SDK's document of that operation name), checks variables
 * against the document's definitions, answers with exactly the selected
 * fields, wants the token in `Authorization` (raw for an API key, `Bearer`
 * for an OAuth token), keeps both rate-limit budgets with their
 * X-RateLimit-* headers and answers RATELIMITED when one is spent.
 */
export async function startFakeLinear(options: { token?: string; oauth?: boolean } = {}): Promise<FakeLinear> {
  const token = options.token ?? "lin_api_fake_0123456789";
  const expectedAuth = options.oauth ? `Bearer ${token}` : token;
  const ws = new FakeWorkspace();
  const requests: SeenRequest[] = [];
  const failures: Array<{ mode: FailMode; retryAfter: number }> = [];
  const budgets = { requests: fresh(5_000), complexity: fresh(3_000_000) };
  const hanging = new Set<ServerResponse>();

  const limitHeaders = (cost: number) => ({
    "x-ratelimit-requests-limit": String(budgets.requests.limit),
    "x-ratelimit-requests-remaining": String(Math.max(0, budgets.requests.remaining)),
    "x-ratelimit-requests-reset": String(budgets.requests.resetAt),
    "x-ratelimit-complexity-limit": String(budgets.complexity.limit),
    "x-ratelimit-complexity-remaining": String(Math.max(0, budgets.complexity.remaining)),
    "x-ratelimit-complexity-reset": String(budgets.complexity.resetAt),
    "x-complexity": String(cost),
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const send = (
      status: number,
      payload: unknown,
      operation = "",
      variables: Record<string, unknown> = {},
      headers: Record<string, string> = {},
    ) => {
      requests.push({ operation, variables, status });
      res.writeHead(status, { ...JSON_TYPE, ...headers }).end(JSON.stringify(payload));
    };
    if (req.url !== "/graphql") return void res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
    if (req.method !== "POST")
      return void res.writeHead(405, { allow: "POST", "content-type": "text/plain" }).end("Method Not Allowed");
    const failure = failures.shift();
    if (failure !== undefined) return injectFailure(failure, req, res, hanging, requests);
    if (req.headers.authorization !== expectedAuth) {
      return send(
        401,
        gqlError(
          "Authentication required, not authenticated",
          "authentication error",
          "AUTHENTICATION_ERROR",
          "You need to authenticate to access this operation.",
        ),
      );
    }
    if (!String(req.headers["content-type"]).startsWith("application/json"))
      return send(400, gqlError("Content-Type must be application/json", "graphql error", "BAD_REQUEST"));
    let doc: ParsedDocument;
    let variables: Record<string, unknown>;
    try {
      const parsed = JSON.parse(body) as { query?: unknown; variables?: unknown };
      if (typeof parsed.query !== "string") throw new FakeInputError("the body has no query");
      doc = parseDocument(parsed.query);
      const expected = (LinearDocument as Record<string, unknown>)[
        `${doc.name
          .split("_")
          .map((part) => `${part.charAt(0).toUpperCase()}${part.slice(1)}`)
          .join("_")}Document`
      ];
      if (expected === undefined || String(expected) !== parsed.query)
        throw new FakeInputError(`operation ${doc.name} is not one of @linear/sdk's documents, word for word`);
      variables = (parsed.variables ?? {}) as Record<string, unknown>;
      checkVariables(doc, variables);
    } catch (error) {
      return send(400, gqlError((error as Error).message, "graphql error", "GRAPHQL_VALIDATION_FAILED"));
    }
    const now = Date.now();
    for (const b of Object.values(budgets)) if (now >= b.resetAt) Object.assign(b, fresh(b.limit));
    if (budgets.requests.remaining <= 0 || budgets.complexity.remaining <= 0) {
      return send(
        400,
        gqlError("Rate limit exceeded", "ratelimited", "RATELIMITED", "API rate limit exceeded; try again later."),
        doc.name,
        variables,
        limitHeaders(0),
      );
    }
    try {
      const data = project(resolveOperation(ws, doc.name, variables), doc.selections, doc);
      const cost = 1 + (JSON.stringify(data).match(/"id":/g)?.length ?? 0);
      budgets.requests.remaining -= 1;
      budgets.complexity.remaining -= cost;
      send(200, { data }, doc.name, variables, limitHeaders(cost));
    } catch (error) {
      if (!(error instanceof FakeInputError)) throw error;
      const notFound = error instanceof FakeNotFound;
      send(
        400,
        gqlError(error.message, "invalid input", notFound ? "ENTITY_NOT_FOUND" : "INPUT_ERROR"),
        doc.name,
        variables,
        limitHeaders(1),
      );
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        res.writeHead(500, JSON_TYPE).end(JSON.stringify({ errors: [{ message: `fake bug: ${String(error)}` }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    token,
    ws,
    requests,
    fail(count, mode, retryAfterSeconds = 1) {
      for (let k = 0; k < count; k++) failures.push({ mode, retryAfter: retryAfterSeconds });
    },
    exhaust(budget, resetInMs) {
      budgets[budget].remaining = 0;
      budgets[budget].resetAt = Date.now() + resetInMs;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function injectFailure(
  failure: { mode: FailMode; retryAfter: number },
  req: IncomingMessage,
  res: ServerResponse,
  hanging: Set<ServerResponse>,
  requests: SeenRequest[],
): void {
  requests.push({ operation: `(failed: ${failure.mode})`, variables: {}, status: Number(failure.mode) || 0 });
  switch (failure.mode) {
    case "500":
      res
        .writeHead(500, JSON_TYPE)
        .end(JSON.stringify(gqlError("Internal server error", "internal error", "INTERNAL_SERVER_ERROR")));
      return;
    case "502":
      res.writeHead(502, { "content-type": "text/html" }).end("<html><body><h1>502 Bad Gateway</h1></body></html>");
      return;
    case "429":
      res
        .writeHead(429, { "content-type": "text/plain", "retry-after": String(failure.retryAfter) })
        .end("Too Many Requests");
      return;
    case "hang":
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    case "reset":
      req.socket.destroy();
      return;
  }
}

/** Checks variables against the document's definitions as a GraphQL server does before running anything. */
function checkVariables(doc: ParsedDocument, variables: Record<string, unknown>): void {
  if (typeof variables !== "object" || variables === null || Array.isArray(variables))
    throw new FakeInputError("variables must be an object");
  for (const name of Object.keys(variables)) {
    if (!doc.variables.some((v) => v.name === name))
      throw new FakeInputError(`Variable "$${name}" is not defined by operation "${doc.name}".`);
  }
  for (const def of doc.variables) {
    const value = variables[def.name];
    if (value === undefined || value === null) {
      if (def.required)
        throw new FakeInputError(`Variable "$${def.name}" of required type "${def.type}!" was not provided.`);
    } else if (!fits(def.type, value))
      throw new FakeInputError(
        `Variable "$${def.name}" got invalid value ${JSON.stringify(value)}; expected type ${def.type}.`,
      );
  }
}

function fits(type: string, value: unknown): boolean {
  if (type.startsWith("["))
    return Array.isArray(value) && value.every((v) => fits(type.slice(1, -1).replace(/!$/, ""), v));
  if (["String", "ID", "DateTime", "TimelessDate", "DateTimeOrDuration"].includes(type))
    return typeof value === "string";
  if (type === "Int") return Number.isInteger(value);
  if (type === "Float") return typeof value === "number";
  if (type === "Boolean") return typeof value === "boolean";
  if (/(Input|Filter|Comparator)$/.test(type)) return typeof value === "object" && !Array.isArray(value);
  return typeof value === "string"; // enums
}

function gqlError(message: string, type: string, code: string, presentable?: string) {
  return {
    errors: [
      {
        message,
        extensions: {
          type,
          code,
          userError: type !== "internal error",
          userPresentableMessage: presentable ?? message,
        },
      },
    ],
  };
}

function fresh(limit: number): Budget {
  return { limit, remaining: limit, resetAt: Date.now() + HOUR };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
