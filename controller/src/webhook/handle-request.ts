import type { IncomingMessage, ServerResponse } from "node:http";
import type { SourceId } from "../config/webhook-config.js";
import { firstHeader } from "./auth/authenticator.js";
import { type DeliverDeps, deliver } from "./deliver.js";
import { unauthenticated, WebhookError, WebhookErrorCode } from "./errors.js";
import { NO_SOURCE, type Outcome, outcomeOfStatus, type WebhookMetrics } from "./metrics.js";
import type { WebhookSource } from "./parsing/source.js";
import { ClientGoneError, readBody } from "./read-body.js";
import { replyJson, sendError, sendJson, sendText } from "./responses.js";
import { ENABLE_HINT, ROUTES, routePath } from "./routes.js";

/** Everything the request handler needs. */
export interface RequestDeps extends DeliverDeps {
  sources: ReadonlyMap<SourceId, WebhookSource>;
  maxBodyBytes: number;
  metrics: WebhookMetrics;
  /** Serve GET /metrics. */
  exposeMetrics: boolean;
  now: () => number;
  /** True once shutdown began: answers close their connection. */
  stopping: () => boolean;
}

const ROUTE_LIST = [...ROUTES.keys()].join(", ");

/** Media type without parameters, lower-case; JSON when the header is absent. */
function mediaTypeOf(req: IncomingMessage): string {
  const value = req.headers["content-type"];
  if (value === undefined) return "application/json";
  const semi = value.indexOf(";");
  return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
}

/**
 * Creates the `request` listener of the webhook server. A webhook POST runs
 * as plain callbacks: headers are checked, the body is read, authenticated,
 * parsed and mapped inside its `end` event, and the answer is written as
 * soon as the hand-off settled; the only promise hop is the ticket
 * handler's own (and the dedupe store's, if it is asynchronous).
 */
export function createRequestHandler(deps: RequestDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const finish = (
    source: string,
    outcome: Outcome,
    started: number,
    tickets: number,
    fields: Record<string, unknown>,
  ) => finishRequest(deps, source, outcome, started, tickets, fields);
  const fail = (req: IncomingMessage, res: ServerResponse, source: string, error: unknown, started: number) =>
    failRequest(deps, req, res, source, error, started);

  const serveSource = (req: IncomingMessage, res: ServerResponse, sourceId: SourceId, started: number) => {
    const source = deps.sources.get(sourceId);
    if (!source) {
      const message = `the ${sourceId} source is not configured: ${ENABLE_HINT[sourceId]}`;
      return fail(req, res, sourceId, new WebhookError(404, WebhookErrorCode.SourceNotConfigured, message), started);
    }
    const headers = req.headers;
    const now = deps.now();
    const headerFailure = source.auth.checkHeaders(headers, now);
    if (headerFailure !== undefined) return fail(req, res, sourceId, unauthenticated(headerFailure), started);
    readBody(req, deps.maxBodyBytes, (bodyError, body) => {
      try {
        if (bodyError !== undefined) throw bodyError;
        // Authenticated on the raw bytes before anything parses them.
        const bodyFailure = source.auth.checkBody(headers, body, now);
        if (bodyFailure !== undefined) throw unauthenticated(bodyFailure);
        const mediaType = mediaTypeOf(req);
        if (!source.mediaTypes.includes(mediaType)) {
          throw new WebhookError(
            415,
            WebhookErrorCode.UnsupportedMediaType,
            `content type ${mediaType} is not accepted; send ${source.mediaTypes.join(" or ")}`,
          );
        }
        const outcome = source.map(body, mediaType, headers);
        const deliveryId = firstHeader(headers, source.deliveryHeaders);
        if (outcome.ignored !== undefined) {
          sendJson(res, 200, { status: "ignored", reason: outcome.ignored }, undefined, deps.stopping());
          finish(sourceId, "ignored", started, 0, {
            source: sourceId,
            outcome: "ignored",
            delivery_id: deliveryId,
            status: 200,
            reason: outcome.ignored,
          });
          return;
        }
        const approvals = outcome.approvals.length || undefined;
        deliver(outcome, { source: sourceId, deliveryId }, deps, (error, reply) => {
          try {
            if (reply === undefined) throw error;
            sendJson(res, 200, undefined, undefined, deps.stopping(), replyJson(reply));
            const tickets = reply.status === "accepted" ? reply.tickets : [];
            finish(sourceId, reply.status, started, tickets.length, {
              source: sourceId,
              outcome: reply.status,
              delivery_id: deliveryId,
              status: 200,
              tickets,
              approvals,
            });
          } catch (failure) {
            fail(req, res, sourceId, failure, started);
          }
        });
      } catch (error) {
        fail(req, res, sourceId, error, started);
      }
    });
  };

  return (req, res) => {
    const started = performance.now();
    const path = routePath(req.url);
    const method = req.method ?? "GET";
    if (path === "/healthz" || (path === "/metrics" && deps.exposeMetrics)) {
      void serveOther(deps, req, res, path, method, started);
      return;
    }
    const sourceId = ROUTES.get(path);
    if (sourceId === undefined) {
      const message = `no route ${path}; webhook routes are ${ROUTE_LIST} (POST) and /healthz (GET)`;
      return fail(req, res, NO_SOURCE, new WebhookError(404, WebhookErrorCode.NotFound, message), started);
    }
    if (method !== "POST") {
      return fail(
        req,
        res,
        sourceId,
        new WebhookError(405, WebhookErrorCode.MethodNotAllowed, `${path} accepts POST only`, { allow: "POST" }),
        started,
      );
    }
    try {
      serveSource(req, res, sourceId, started);
    } catch (error) {
      fail(req, res, sourceId, error, started);
    }
  };
}

/** Counts and logs one answered request. */
function finishRequest(
  deps: RequestDeps,
  source: string,
  outcome: Outcome,
  started: number,
  tickets: number,
  fields: Record<string, unknown>,
): void {
  const seconds = (performance.now() - started) / 1000;
  deps.metrics.observe(source, outcome, seconds, tickets);
  fields.duration_ms = Math.round(seconds * 1e4) / 10;
  deps.logger[outcome === "unavailable" || outcome === "internal_error" ? "warn" : "info"]("webhook request", fields);
}

/** Answers a failed request with its error (an unexpected one as a 500), or only records it when the client is gone. */
function failRequest(
  deps: RequestDeps,
  req: IncomingMessage,
  res: ServerResponse,
  source: string,
  error: unknown,
  started: number,
): void {
  const deliveryId = deliveryIdOf(req, deps.sources, source);
  if (error instanceof ClientGoneError) {
    finishRequest(deps, source, "client_gone", started, 0, { source, outcome: "client_gone", delivery_id: deliveryId });
    return;
  }
  const known = error instanceof WebhookError;
  const failure = known ? error : new WebhookError(500, "ERR_INTERNAL" as WebhookErrorCode, "internal error");
  if (!known) deps.logger.error("webhook request failed unexpectedly", { source, error });
  // A refused body that was not read leaves the connection unusable: close it.
  sendError(res, failure, deps.stopping() || failure.status === 413 || !req.complete);
  const outcome = outcomeOfStatus(failure.status, failure.code);
  finishRequest(deps, source, outcome, started, 0, {
    source,
    outcome,
    delivery_id: deliveryId,
    status: failure.status,
    error: failure.code,
    message: failure.message,
  });
}

/** `/healthz` and `/metrics`. */
async function serveOther(
  deps: RequestDeps,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  method: string,
  started: number,
): Promise<void> {
  try {
    if (method !== "GET" && method !== "HEAD") {
      throw new WebhookError(405, WebhookErrorCode.MethodNotAllowed, `${path} answers GET and HEAD only`, {
        allow: "GET, HEAD",
      });
    }
    if (path === "/healthz") return sendText(res, 200, "ok", undefined, method === "HEAD");
    const text = await deps.metrics.registry.metrics();
    return sendText(res, 200, text, deps.metrics.registry.contentType, method === "HEAD");
  } catch (error) {
    failRequest(deps, req, res, NO_SOURCE, error, started);
  }
}

function deliveryIdOf(
  req: IncomingMessage,
  sources: ReadonlyMap<SourceId, WebhookSource>,
  source: string,
): string | undefined {
  const found = sources.get(source as SourceId);
  return found ? firstHeader(req.headers, found.deliveryHeaders) : undefined;
}
