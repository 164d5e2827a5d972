import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { RateLimiter, Script, type SinkBehaviour, type SinkRateLimit } from "./sink-script.js";

export type { SinkBehaviour, SinkRateLimit };

/** One request the sink received. */
export interface SinkRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Query parameters (the last value of a repeated name). */
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The body as UTF-8 text. */
  body: string;
  rawBody: Buffer;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
  /** `Date.now()` when the body had fully arrived. */
  receivedAt: number;
  /** The status answered; undefined while delayed, or when hung or dropped. */
  status: number | undefined;
  /** True when the sink's rate limit answered 429. */
  rateLimited: boolean;
}

/** Options of {@link startSink}. */
export interface SinkOptions {
  /** The initial script of every path (see {@link Sink.behave}). Default: 200 `{"ok":true}`. */
  behaviour?: SinkBehaviour | SinkBehaviour[];
  /** Answer 429 when requests exceed this rate. */
  rateLimit?: SinkRateLimit;
}

/** A recording HTTP server on 127.0.0.1 for channel tests. */
export interface Sink {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** A copy of the requests received so far, in order. */
  readonly requests: SinkRequest[];
  /**
   * Replaces the script of every path, or of `options.path` only. A script
   * is played in order: a step with `times: n` answers the next n requests,
   * a step without `times` every later one. When a path's script is used
   * up, the global one applies; when that is used up, 200 `{"ok":true}`.
   *
   * @example
   * sink.behave([{ status: 503, times: 2 }, { status: 200, json: { id: "m1" } }]);
   * sink.behave({ status: 429, retryAfter: 1, json: { retry_after: 1.0 }, times: 1 }, { path: "/hook" });
   *
   * Throws InvalidArgumentError, naming the step and field, for a behaviour
   * the sink could not play (a status outside 100-999, a header Node refuses…).
   */
  behave(behaviour: SinkBehaviour | SinkBehaviour[], options?: { path?: string }): void;
  /** Turns the rate limit on, changes it, or (undefined) turns it off. Throws InvalidArgumentError for an unusable limit. */
  setRateLimit(limit: SinkRateLimit | undefined): void;
  /** Resolves with the requests once at least `count` arrived; rejects after `timeoutMs` (default 5000). */
  waitForRequests(count: number, timeoutMs?: number): Promise<SinkRequest[]>;
  /** Forgets requests and per-path scripts; restores the start options. */
  reset(): void;
  /** Stops the server, ending hanging and delayed answers too. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts a {@link Sink}: a real HTTP server on 127.0.0.1 (a free port) that
 * records every request and answers as scripted: slow, hanging, 5xx, 429
 * with `Retry-After` and/or a JSON `retry_after`, any status and body, a
 * dropped connection, or a rate limit. Always `close()` it (in `afterEach`).
 *
 * @example
 * const sink = await startSink();
 * sink.behave({ status: 500, times: 1 });
 * await post(`${sink.url}/hook`);
 * expect(sink.requests[0]?.json).toEqual({ text: "hi" });
 * await sink.close();
 */
export async function startSink(options: SinkOptions = {}): Promise<Sink> {
  let requests: SinkRequest[] = [];
  let global = new Script(options.behaviour ?? [], "startSink: behaviour");
  let byPath = new Map<string, Script>();
  let limiter = options.rateLimit ? new RateLimiter(options.rateLimit, "startSink") : undefined;
  const timers = new Set<NodeJS.Timeout>();
  const waiters = new Set<() => void>();
  let closed: Promise<void> | undefined;

  const handle = (req: IncomingMessage, res: ServerResponse, rawBody: Buffer) => {
    const record = recordOf(req, rawBody);
    requests.push(record);
    for (const wake of waiters) wake();

    const waitMs = limiter?.take(limiter.limit.key?.(record) ?? record.path, record.receivedAt) ?? 0;
    record.rateLimited = waitMs > 0;
    const behaviour = record.rateLimited
      ? rateLimitedAnswer(waitMs)
      : (byPath.get(record.path)?.next() ?? global.next() ?? {});
    if (behaviour.delayMs && behaviour.delayMs > 0) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer(res, record, behaviour);
      }, behaviour.delayMs);
      timers.add(timer);
    } else {
      answer(res, record, behaviour);
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => handle(req, res, Buffer.concat(chunks)));
  });
  const port = await listenOnFreePort(server);

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get requests() {
      return [...requests];
    },
    behave(behaviour, behaveOptions = {}) {
      if (behaveOptions.path === undefined) global.replace(behaviour, "sink.behave");
      else byPath.set(behaveOptions.path, new Script(behaviour, `sink.behave (path ${behaveOptions.path})`));
    },
    setRateLimit(limit) {
      limiter = limit ? new RateLimiter(limit, "sink.setRateLimit") : undefined;
    },
    waitForRequests: (count, timeoutMs = 5000) => waitForCount(() => requests, waiters, count, timeoutMs),
    reset() {
      requests = [];
      global = new Script(options.behaviour ?? []);
      byPath = new Map();
      limiter = options.rateLimit ? new RateLimiter(options.rateLimit) : undefined;
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        // Ends keep-alive, hanging and delayed connections, so no test leaks a socket.
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/** The 429 the sink's rate limit answers, saying in both places clients look when to retry. */
function rateLimitedAnswer(waitMs: number): SinkBehaviour {
  const seconds = waitMs / 1000;
  return { status: 429, retryAfter: Math.ceil(seconds), json: { message: "rate limited", retry_after: seconds } };
}

/** Listens on a free port of 127.0.0.1 and resolves with it. */
async function listenOnFreePort(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** Answers as the behaviour says: dropped, hanging, or a status with headers and a body. */
function answer(res: ServerResponse, record: SinkRequest, behaviour: SinkBehaviour): void {
  if (behaviour.drop) {
    res.socket?.destroy();
    return;
  }
  if (behaviour.hang) return;
  const status = behaviour.status ?? 200;
  const headers: Record<string, string> = {};
  let body = behaviour.body;
  if (body === undefined) {
    body = JSON.stringify(behaviour.json === undefined ? { ok: status < 400 } : behaviour.json);
    headers["content-type"] = "application/json; charset=utf-8";
  } else {
    headers["content-type"] = "text/plain; charset=utf-8";
  }
  if (behaviour.retryAfter !== undefined) headers["retry-after"] = String(behaviour.retryAfter);
  Object.assign(headers, behaviour.headers);
  record.status = status;
  try {
    res.writeHead(status, headers).end(body);
  } catch (error) {
    // Scripts are checked when given; this only guards the test process against what slipped through.
    record.status = undefined;
    res.socket?.destroy(error as Error);
  }
}

/** What the sink records of one request. */
function recordOf(req: IncomingMessage, rawBody: Buffer): SinkRequest {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const body = rawBody.toString("utf8");
  return {
    method: req.method ?? "GET",
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: req.headers,
    body,
    rawBody,
    json: parseJson(body),
    receivedAt: Date.now(),
    status: undefined,
    rateLimited: false,
  };
}

/** Resolves with the requests once there are `count`; `waiters` are woken at each request. */
function waitForCount(
  requests: () => SinkRequest[],
  waiters: Set<() => void>,
  count: number,
  timeoutMs: number,
): Promise<SinkRequest[]> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (requests().length < count) return;
      cleanup();
      resolve([...requests()]);
    };
    const timer = setTimeout(() => {
      cleanup();
      const seen =
        requests()
          .map((r) => `${r.method} ${r.path}`)
          .join(", ") || "none";
      reject(
        new Error(`sink: expected ${count} request(s) within ${timeoutMs} ms, got ${requests().length} (${seen})`),
      );
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      waiters.delete(check);
    };
    waiters.add(check);
    check();
  });
}

function parseJson(text: string): unknown {
  if (!/^\s*[[{"\d-]|^\s*(true|false|null)\s*$/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
