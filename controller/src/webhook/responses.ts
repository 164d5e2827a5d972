import type { ServerResponse } from "node:http";
import type { WebhookError } from "./errors.js";

/** Body of a 200 answer: the stable response shapes of the webhook API. */
export type WebhookReply =
  | { status: "accepted"; tickets: string[]; approvals?: number }
  | { status: "ignored"; reason: string }
  | { status: "duplicate" };

const JSON_TYPE = "application/json; charset=utf-8";

const DUPLICATE_JSON = JSON.stringify({ status: "duplicate" });

/** The JSON text of a 200 answer; the common shapes without a generic stringify. */
export function replyJson(reply: WebhookReply): string {
  if (reply.status === "duplicate") return DUPLICATE_JSON;
  if (reply.status !== "accepted") return JSON.stringify(reply);
  let ids = "";
  for (let i = 0; i < reply.tickets.length; i++) ids += (i === 0 ? "" : ",") + JSON.stringify(reply.tickets[i]);
  const approvals = reply.approvals === undefined ? "" : `,"approvals":${reply.approvals}`;
  return `{"status":"accepted","tickets":[${ids}]${approvals}}`;
}

/** Sends a JSON body (a value, or its JSON text), unless the connection is already gone or answered. */
export function sendJson(
  res: ServerResponse,
  status: number,
  payload: unknown,
  headers?: Readonly<Record<string, string>>,
  close = false,
  text?: string,
): void {
  if (res.headersSent || res.destroyed) return;
  const body = text ?? JSON.stringify(payload);
  // One writeHead call with every header is the cheapest path through node:http.
  const all: Record<string, string | number> = { "content-type": JSON_TYPE, "content-length": Buffer.byteLength(body) };
  if (headers !== undefined) Object.assign(all, headers);
  if (close) all.connection = "close";
  res.writeHead(status, all);
  res.end(body);
}

/** Sends `{"error":{"code","message"}}` with the error's status and headers. */
export function sendError(res: ServerResponse, error: WebhookError, close = false): void {
  sendJson(res, error.status, { error: { code: error.code, message: error.message } }, error.headers, close);
}

/** Sends a plain-text body (health checks, metrics). */
export function sendText(
  res: ServerResponse,
  status: number,
  body: string,
  contentType = "text/plain; charset=utf-8",
  headOnly = false,
): void {
  if (res.headersSent || res.destroyed) return;
  res.statusCode = status;
  res.setHeader("content-type", contentType);
  res.setHeader("content-length", Buffer.byteLength(body));
  res.end(headOnly ? undefined : body);
}
