/**
 * A local stand-in for chat A's `chat.postMessage` (Slack's web API), as
 * strict as the documented platform: a real HTTP server on 127.0.0.1:0.
 *
 * Documented behaviour it reproduces (https://docs.slack.dev/reference/methods/chat.postMessage,
 * https://docs.slack.dev/apis/web-api, https://docs.slack.dev/apis/web-api/rate-limits):
 * - errors come back as HTTP 200 `{"ok":false,"error":"<code>"}`, except rate limits (HTTP 429 + Retry-After);
 * - the token travels as `Authorization: Bearer xoxb-…`; missing → `not_authed`, unknown → `invalid_auth`,
 *   without the scope → `missing_scope` with `needed`/`provided`;
 * - JSON bodies need `Content-Type: application/json`; without a charset the post succeeds with a
 *   `missing_charset` warning; no content type → `missing_post_type`, another type → `invalid_post_type`;
 * - `channel_not_found`, `not_in_channel`, `is_archived`, `no_text`, `msg_too_long` (text over 40,000);
 * - Block Kit validation answers `invalid_blocks` with `errors` carrying JSON pointers, like
 *   "must be less than 3001 characters [json-pointer:/blocks/0/text/text]";
 * - about 1 message per second per channel; bursts above it get 429 with `Retry-After` in seconds;
 * - `chat.update` (https://docs.slack.dev/reference/methods/chat.update): the same token, body and
 *   Block Kit checks, `channel` plus the `ts` of a message posted there, else `message_not_found`;
 *   it answers `{ok, channel, ts, text}` and is not spaced like posts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { validateBlocks } from "./validate-blocks.js";

export interface FakeSlackOptions {
  /** Known tokens and their scopes. Default: `xoxb-test-token` with `chat:write`. */
  tokens?: Record<string, string[]>;
  /** Known channels. Default: C0000000001 and C0000000002 (bot is a member), C0000000003 (not a member), C0000000004 (archived). */
  channels?: Record<string, { member: boolean; archived?: boolean }>;
  /** Per-channel spacing the platform enforces, in ms. Default 1000. */
  intervalMs?: number;
  /** Extra messages a channel may send at once before the spacing applies. Default 0. */
  burst?: number;
  /** Slack for timer and network jitter, in ms. Default 50. */
  toleranceMs?: number;
}

/** One request the fake received and what it answered. */
export interface FakeSlackRequest {
  receivedAt: number;
  headers: IncomingMessage["headers"];
  body: unknown;
  status: number;
  answer: Record<string, unknown>;
}

/** A scripted answer that overrides the normal behaviour for the next request(s). */
export interface ScriptedAnswer {
  status?: number;
  /** Answer `{"ok":false,"error":<error>}` with HTTP 200 (or `status`). */
  error?: string;
  /** Extra fields of the error body (e.g. `needed`). */
  extra?: Record<string, unknown>;
  /** Answer after this delay. */
  delayMs?: number;
  /** Never answer. */
  hang?: boolean;
  retryAfterSeconds?: number;
}

export interface FakeSlack {
  /** The `api_base_url` to configure: `http://127.0.0.1:<port>/api`. */
  readonly apiBaseUrl: string;
  readonly requests: FakeSlackRequest[];
  /** Messages accepted (ok:true), in arrival order. */
  readonly accepted: { channel: string; ts: string; text: string; blocks: unknown; receivedAt: number }[];
  /** Messages changed with chat.update (ok:true), in arrival order. */
  readonly updates: { channel: string; ts: string; text: string; blocks: unknown; receivedAt: number }[];
  /** How many 429s the fake answered. */
  readonly rateLimited: number;
  /** Plays these answers, one per request, before behaving normally again. */
  script(...answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

const DEFAULT_CHANNELS = {
  C0000000001: { member: true },
  C0000000002: { member: true },
  C0000000003: { member: false },
  C0000000004: { member: true, archived: true },
};

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const tokens = options.tokens ?? { "xoxb-test-token": ["chat:write"] };
  const channels: Record<string, { member: boolean; archived?: boolean }> = options.channels ?? DEFAULT_CHANNELS;
  const intervalMs = options.intervalMs ?? 1000;
  const burstMs = (options.burst ?? 0) * intervalMs;
  const toleranceMs = options.toleranceMs ?? 50;
  const requests: FakeSlackRequest[] = [];
  const accepted: FakeSlack["accepted"] = [];
  const updates: FakeSlack["updates"] = [];
  const scripted: ScriptedAnswer[] = [];
  // Generic cell rate algorithm: the theoretical arrival time of each channel's next message.
  const tat = new Map<string, number>();
  let rateLimited = 0;
  let seq = 0;

  const answer = (
    res: ServerResponse,
    record: FakeSlackRequest,
    status: number,
    body: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) => {
    record.status = status;
    record.answer = body;
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers }).end(JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const record: FakeSlackRequest = {
      receivedAt: Date.now(),
      headers: req.headers,
      body: undefined,
      status: 0,
      answer: {},
    };
    requests.push(record);
    const fail = (error: string, extra: Record<string, unknown> = {}) =>
      answer(res, record, 200, { ok: false, error, ...extra });

    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = url.pathname === "/api/chat.update" ? "update" : "post";
    if (url.pathname !== "/api/chat.postMessage" && method !== "update")
      return answer(res, record, 404, { ok: false, error: "unknown_method" });
    if (req.method !== "POST") return fail("invalid_request_method");

    const step = scripted.shift();
    if (step) {
      if (step.hang) return;
      const send = () =>
        step.error
          ? answer(
              res,
              record,
              step.status ?? 200,
              { ok: false, error: step.error, ...step.extra },
              step.retryAfterSeconds ? { "retry-after": String(step.retryAfterSeconds) } : {},
            )
          : answer(res, record, step.status ?? 500, { ok: false, error: "internal_error" });
      if (step.delayMs) setTimeout(send, step.delayMs);
      else send();
      return;
    }

    const auth = req.headers.authorization;
    const token = auth?.startsWith("Bearer ") ? auth.slice(7).trim() : undefined;
    if (!token) return fail("not_authed");
    const scopes = tokens[token];
    if (!scopes) return fail("invalid_auth");
    if (!scopes.includes("chat:write"))
      return fail("missing_scope", { needed: "chat:write", provided: scopes.join(",") });

    const contentType = req.headers["content-type"];
    if (!contentType) return fail("missing_post_type");
    const [mime, ...params] = contentType.split(";").map((p) => p.trim().toLowerCase());
    if (mime !== "application/json") return fail("invalid_post_type");
    const charset = params.find((p) => p.startsWith("charset="))?.slice(8);
    if (charset && charset !== "utf-8" && charset !== "iso-8859-1") return fail("invalid_charset");
    const warnings = charset ? [] : ["missing_charset"];

    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      return fail("invalid_json");
    }
    record.body = body;
    if (typeof body !== "object" || body === null || Array.isArray(body)) return fail("json_not_object");
    const message = body as Record<string, unknown>;

    const channel = message.channel;
    if (typeof channel !== "string" || !(channel in channels)) return fail("channel_not_found");
    const known = channels[channel]!;
    if (known.archived) return fail("is_archived");
    if (!known.member) return fail("not_in_channel");
    if (method === "update") return update(message, channel, record, res);

    const now = record.receivedAt;
    const due = tat.get(channel) ?? now;
    if (now < due - burstMs - toleranceMs) {
      rateLimited++;
      const seconds = Math.max(1, Math.ceil((due - burstMs - now) / 1000));
      return answer(res, record, 429, { ok: false, error: "ratelimited" }, { "retry-after": String(seconds) });
    }
    tat.set(channel, Math.max(due, now) + intervalMs);

    const text = message.text;
    const blocks = message.blocks;
    const problem = contentProblem(message);
    if (problem) return fail(...problem);

    const ts = `${Math.floor(now / 1000)}.${String(++seq).padStart(6, "0")}`;
    accepted.push({ channel, ts, text: typeof text === "string" ? text : "", blocks, receivedAt: now });
    const ok: Record<string, unknown> = {
      ok: true,
      channel,
      ts,
      message: { type: "message", subtype: "bot_message", text, blocks, bot_id: "B0000000001", ts },
    };
    if (warnings.length > 0) Object.assign(ok, { warning: warnings.join(","), response_metadata: { warnings } });
    return answer(res, record, 200, ok);
  };

  /** The text and Block Kit checks of both methods: the error to answer, or undefined when the content is fine. */
  const contentProblem = (message: Record<string, unknown>): [string, Record<string, unknown>?] | undefined => {
    const { text, blocks } = message;
    if ((typeof text !== "string" || text === "") && !Array.isArray(blocks)) return ["no_text"];
    if (typeof text === "string" && text.length > 40_000) return ["msg_too_long"];
    const problems = blocks === undefined ? [] : validateBlocks(blocks);
    if (problems.length === 0) return undefined;
    if (problems.some((p) => p.startsWith("msg_blocks_too_long"))) return ["msg_blocks_too_long"];
    return [
      "invalid_blocks",
      { errors: problems, response_metadata: { messages: problems.map((p) => `[ERROR] ${p}`) } },
    ];
  };

  /** chat.update of a message posted in `channel`, its token, body and channel checked already. */
  const update = (message: Record<string, unknown>, channel: string, record: FakeSlackRequest, res: ServerResponse) => {
    const fail = (error: string, extra: Record<string, unknown> = {}) =>
      answer(res, record, 200, { ok: false, error, ...extra });
    const posted = accepted.find((m) => m.channel === channel && m.ts === message.ts);
    if (typeof message.ts !== "string" || posted === undefined) return fail("message_not_found");
    const problem = contentProblem(message);
    if (problem) return fail(...problem);
    const text = typeof message.text === "string" ? message.text : "";
    posted.text = text;
    posted.blocks = message.blocks;
    updates.push({ channel, ts: posted.ts, text, blocks: message.blocks, receivedAt: record.receivedAt });
    return answer(res, record, 200, { ok: true, channel, ts: posted.ts, text });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => handle(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    apiBaseUrl: `http://127.0.0.1:${port}/api`,
    requests,
    accepted,
    updates,
    get rateLimited() {
      return rateLimited;
    },
    script: (...answers) => scripted.push(...answers),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
