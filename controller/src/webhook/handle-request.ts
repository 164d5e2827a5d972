import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "@errand/channel-sdk";
import type { SourceId } from "../config/webhook-config.js";
import { firstHeader } from "./auth/authenticator.js";
import { type DeliverDeps, deliver } from "./deliver.js";
import { unauthenticated, WebhookError, WebhookErrorCode } from "./errors.js";
import { NO_SOURCE, type Outcome, outcomeOfStatus, type WebhookMetrics } from "./metrics.js";
import { ClientGoneError, readBody } from "./read-body.js";
import { sendError, sendJson, sendText } from "./responses.js";
import { ENABLE_HINT, ROUTES, routePath } from "./routes.js";
import type { WebhookSource } from "./sources/source.js";

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

/** Creates the `request` listener of the webhook server. */
export function createRequestHandler(deps: RequestDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { logger, metrics } = deps;

  const finish = (source: string, outcome: Outcome, started: number, tickets: number, fields: Record<string, unknown>) => {
    const seconds = (performance.now() - started) / 1000;
    metrics.observe(source, outcome, seconds, tickets);
    const level = outcome === "unavailable" || outcome === "internal_error" ? "warn" : "info";
    logger[level]("webhook request", { source, outcome, ...fields, duration_ms: Math.round(seconds * 1e4) / 10 });
  };

  const serveSource = async (req: IncomingMessage, res: ServerResponse, sourceId: SourceId, started: number) => {
    const source = deps.sources.get(sourceId);
    if (!source) {
      throw new WebhookError(404, WebhookErrorCode.SourceNotConfigured, `the ${sourceId} source is not configured: ${ENABLE_HINT[sourceId]}`);
    }
    const headers = req.headers;
    const now = deps.now();
    const headerFailure = source.auth.checkHeaders(headers, now);
    if (headerFailure !== undefined) throw unauthenticated(headerFailure);
    const body = await readBody(req, deps.maxBodyBytes);
    const bodyFailure = source.auth.checkBody(headers, body, now);
    if (bodyFailure !== undefined) throw unauthenticated(bodyFailure);
    const mediaType = mediaTypeOf(req);
    if (!source.mediaTypes.includes(mediaType)) {
      throw new WebhookError(415, WebhookErrorCode.UnsupportedMediaType, `content type ${mediaType} is not accepted; send ${source.mediaTypes.join(" or ")}`);
    }
    const outcome = source.map(body, mediaType, headers);
    const deliveryId = firstHeader(headers, source.deliveryHeaders);
    if (outcome.ignored !== undefined) {
      sendJson(res, 200, { status: "ignored", reason: outcome.ignored }, undefined, deps.stopping());
      finish(sourceId, "ignored", started, 0, { delivery_id: deliveryId, status: 200, reason: outcome.ignored });
      return;
    }
    const reply = await deliver(outcome, { source: sourceId, deliveryId }, deps);
    sendJson(res, 200, reply, undefined, deps.stopping());
    const tickets = reply.status === "accepted" ? reply.tickets : [];
    const status = reply.status === "ignored" ? "ignored" : reply.status;
    finish(sourceId, status, started, tickets.length, { delivery_id: deliveryId, status: 200, tickets, approvals: outcome.approvals.length || undefined });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const path = routePath(req.url);
    const method = req.method ?? "GET";
    let source: string = NO_SOURCE;
    try {
      if (path === "/healthz" || (path === "/metrics" && deps.exposeMetrics)) {
        if (method !== "GET" && method !== "HEAD") {
          throw new WebhookError(405, WebhookErrorCode.MethodNotAllowed, `${path} answers GET and HEAD only`, { allow: "GET, HEAD" });
        }
        if (path === "/healthz") return sendText(res, 200, "ok", undefined, method === "HEAD");
        const text = await metrics.registry.metrics();
        return sendText(res, 200, text, metrics.registry.contentType, method === "HEAD");
      }
      const sourceId = ROUTES.get(path);
      if (sourceId === undefined) {
        throw new WebhookError(404, WebhookErrorCode.NotFound, `no route ${path}; webhook routes are ${ROUTE_LIST} (POST) and /healthz (GET)`);
      }
      source = sourceId;
      if (method !== "POST") {
        throw new WebhookError(405, WebhookErrorCode.MethodNotAllowed, `${path} accepts POST only`, { allow: "POST" });
      }
      await serveSource(req, res, sourceId, started);
    } catch (error) {
      if (error instanceof ClientGoneError) {
        finish(source, "client_gone", started, 0, { delivery_id: deliveryIdOf(req, deps, source) });
        return;
      }
      const known = error instanceof WebhookError;
      const failure = known ? error : new WebhookError(500, "ERR_INTERNAL" as WebhookErrorCode, "internal error");
      if (!known) logger.error("webhook request failed unexpectedly", { source, error });
      // A refused body that was not read leaves the connection unusable: close it.
      const close = deps.stopping() || failure.status === 413 || !req.complete;
      sendError(res, failure, close);
      finish(source, outcomeOfStatus(failure.status, failure.code), started, 0, {
        delivery_id: deliveryIdOf(req, deps, source),
        status: failure.status,
        error: failure.code,
        message: failure.message,
      });
    }
  };

  return (req, res) => {
    void handle(req, res);
  };
}

function deliveryIdOf(req: IncomingMessage, deps: RequestDeps, source: string): string | undefined {
  const found = deps.sources.get(source as SourceId);
  return found ? firstHeader(req.headers, found.deliveryHeaders) : undefined;
}
