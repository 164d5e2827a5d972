/**
 * A local stand-in for a chat B (Discord-style) webhook, as strict as the
 * documented platform: a real HTTP server on 127.0.0.1:0 serving
 * `POST /api/webhooks/{id}/{token}` (https://discord.com/developers/docs/resources/webhook#execute-webhook).
 *
 * - unknown id: 404 `{"message":"Unknown Webhook","code":10015}`; wrong token: 401 `{"message":"Invalid Webhook Token","code":50027}`;
 * - a body that is not JSON: 400 `{"message":"Cannot send an empty message","code":50006}` (the form is read as empty);
 *   invalid JSON: 400 code 50109; nothing to show: 400 code 50006;
 * - limit violations: 400 `{"code":50035,"message":"Invalid Form Body","errors":{…}}`;
 * - `?wait=true` answers 200 with the message, otherwise 204;
 * - per-webhook bucket of `limit` requests per `windowMs` (5 per 2 s, as widely observed; the platform
 *   says to follow the headers rather than hard-code it, https://discord.com/developers/docs/topics/rate-limits);
 *   every answer carries `X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket`; over the limit:
 *   429 `{"message":"You are being rate limited.","retry_after":<float s>,"global":false}` with `Retry-After`.
 *   Refused requests count toward the bucket like accepted ones.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { validateMessage } from "./validate-message.js";

export interface FakeDiscordOptions {
  /** Webhook id → token. Default `{"111": "token-one", "222": "token-two"}`. */
  webhooks?: Record<string, string>;
  /** Requests per window per webhook. Default 5. */
  limit?: number;
  /** Window length in ms. Default 2000. */
  windowMs?: number;
}

export interface FakeDiscordRequest {
  receivedAt: number;
  webhookId: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: unknown;
  status: number;
  answer: unknown;
  responseHeaders: Record<string, string>;
}

export interface ScriptedAnswer {
  status: number;
  json?: unknown;
  headers?: Record<string, string>;
  hang?: boolean;
}

export interface FakeDiscord {
  readonly url: string;
  /** The full URL of a known webhook. */
  webhookUrl(id?: string): string;
  readonly requests: FakeDiscordRequest[];
  readonly accepted: { webhookId: string; id: string; body: Record<string, unknown>; receivedAt: number }[];
  readonly rateLimited: number;
  script(...answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

const PATH = /^\/api(?:\/v\d+)?\/webhooks\/([^/]+)\/([^/]+)\/?$/;

export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const webhooks = options.webhooks ?? { "111": "token-one", "222": "token-two" };
  const limit = options.limit ?? 5;
  const windowMs = options.windowMs ?? 2000;
  const requests: FakeDiscordRequest[] = [];
  const accepted: FakeDiscord["accepted"] = [];
  const scripted: ScriptedAnswer[] = [];
  const buckets = new Map<string, { count: number; resetAt: number }>();
  let rateLimited = 0;
  let snowflake = 1_300_000_000_000_000_000n;

  const handle = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const match = PATH.exec(url.pathname);
    const record: FakeDiscordRequest = {
      receivedAt: Date.now(),
      webhookId: match?.[1] ?? "",
      query: url.searchParams,
      headers: req.headers,
      body: undefined,
      status: 0,
      answer: undefined,
      responseHeaders: {},
    };
    requests.push(record);
    const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      record.answer = json;
      record.responseHeaders = headers;
      if (status === 204) return void res.writeHead(204, headers).end();
      res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(json));
    };

    const step = scripted.shift();
    if (step) {
      if (step.hang) return;
      return send(step.status, step.json ?? {}, step.headers);
    }
    if (!match || req.method !== "POST") return send(404, { message: "404: Not Found", code: 0 });
    const [, id, token] = match as unknown as [string, string, string];
    if (!(id in webhooks)) return send(404, { message: "Unknown Webhook", code: 10015 });
    if (webhooks[id] !== token) return send(401, { message: "Invalid Webhook Token", code: 50027 });

    // The bucket: a window opens with the first request after the last one closed.
    const now = record.receivedAt;
    let bucket = buckets.get(id);
    if (!bucket || now >= bucket.resetAt) {
      bucket = { count: 0, resetAt: now + windowMs };
      buckets.set(id, bucket);
    }
    const rateHeaders = (remaining: number) => ({
      "x-ratelimit-limit": String(limit),
      "x-ratelimit-remaining": String(remaining),
      "x-ratelimit-reset": (bucket!.resetAt / 1000).toFixed(3),
      "x-ratelimit-reset-after": ((bucket!.resetAt - now) / 1000).toFixed(3),
      "x-ratelimit-bucket": createHash("sha1").update(`webhook:${id}`).digest("hex").slice(0, 32),
    });
    if (bucket.count >= limit) {
      rateLimited++;
      const seconds = (bucket.resetAt - now) / 1000;
      return send(
        429,
        { message: "You are being rate limited.", retry_after: Number(seconds.toFixed(3)), global: false },
        { ...rateHeaders(0), "retry-after": String(Math.ceil(seconds)), "x-ratelimit-scope": "shared" },
      );
    }
    bucket.count++;
    const headers = rateHeaders(limit - bucket.count);

    const contentType = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (contentType !== "application/json")
      return send(400, { message: "Cannot send an empty message", code: 50006 }, headers);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      return send(400, { message: "The request body contains invalid JSON.", code: 50109 }, headers);
    }
    record.body = body;
    if (typeof body !== "object" || body === null || Array.isArray(body))
      return send(400, { message: "Cannot send an empty message", code: 50006 }, headers);
    const message = body as Record<string, unknown>;
    const errors = validateMessage(message);
    if (errors) return send(400, { code: 50035, errors, message: "Invalid Form Body" }, headers);
    const hasContent = typeof message.content === "string" && message.content.trim() !== "";
    const hasEmbeds = Array.isArray(message.embeds) && message.embeds.length > 0;
    if (!hasContent && !hasEmbeds) return send(400, { message: "Cannot send an empty message", code: 50006 }, headers);

    const messageId = String(++snowflake);
    accepted.push({ webhookId: id, id: messageId, body: message, receivedAt: now });
    if (url.searchParams.get("wait") !== "true") return send(204, undefined, headers);
    return send(
      200,
      {
        id: messageId,
        type: 0,
        channel_id: "900000000000000001",
        webhook_id: id,
        content: message.content ?? "",
        embeds: message.embeds ?? [],
        author: { id, username: message.username ?? "Captain Hook", bot: true },
        timestamp: new Date(now).toISOString(),
      },
      headers,
    );
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => handle(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    webhookUrl: (id = "111") => `${base}/api/webhooks/${id}/${webhooks[id] ?? "unknown-token"}`,
    requests,
    accepted,
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
