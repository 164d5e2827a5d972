import type { IncomingMessage, ServerResponse } from "node:http";
import type { SourceId } from "../config/webhook-config.js";
import { firstHeader } from "./auth/authenticator.js";
import { deliver } from "./deliver.js";
import { unauthenticated, WebhookError, WebhookErrorCode } from "./errors.js";
import type { WebhookSource } from "./parsing/source.js";
import { readBody } from "./read-body.js";
import type { RequestDeps } from "./request-deps.js";
import { failRequest, finishRequest } from "./request-outcome.js";
import { replyJson, sendJson } from "./responses.js";
import { ENABLE_HINT } from "./routes.js";

/** One webhook POST to a source's route, as every step of serving it needs it. */
interface Exchange {
  deps: RequestDeps;
  req: IncomingMessage;
  res: ServerResponse;
  sourceId: SourceId;
  started: number;
}

const fail = (x: Exchange, error: unknown): void => failRequest(x.deps, x.req, x.res, x.sourceId, error, x.started);

/** Serves a webhook POST: headers checked, then the body read and authenticated on its raw bytes, then handed off. */
export function serveSource(x: Exchange): void {
  const { deps, req, sourceId } = x;
  const source = deps.sources.get(sourceId);
  if (!source) {
    const message = `the ${sourceId} source is not configured: ${ENABLE_HINT[sourceId]}`;
    return fail(x, new WebhookError(404, WebhookErrorCode.SourceNotConfigured, message));
  }
  const headers = req.headers;
  const now = deps.now();
  const headerFailure = source.auth.checkHeaders(headers, now);
  if (headerFailure !== undefined) return fail(x, unauthenticated(headerFailure));
  readBody(req, deps.maxBodyBytes, (bodyError, body) => {
    try {
      if (bodyError !== undefined) throw bodyError;
      // Authenticated on the raw bytes before anything parses them.
      const bodyFailure = source.auth.checkBody(headers, body, now);
      if (bodyFailure !== undefined) throw unauthenticated(bodyFailure);
      parseAndDeliver(x, source, body);
    } catch (error) {
      fail(x, error);
    }
  });
}

/** Parses an authenticated body and hands its tickets to the ticket handler; answers once the hand-off settled. */
function parseAndDeliver(x: Exchange, source: WebhookSource, body: Buffer): void {
  const { deps, req, res, sourceId, started } = x;
  const headers = req.headers;
  const mediaType = acceptedMediaType(req, source);
  const outcome = source.map(body, mediaType, headers);
  const deliveryId = firstHeader(headers, source.deliveryHeaders);
  if (outcome.ignored !== undefined) {
    sendJson(res, 200, { status: "ignored", reason: outcome.ignored }, undefined, deps.stopping());
    finishRequest(deps, sourceId, "ignored", started, 0, {
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
      finishRequest(deps, sourceId, reply.status, started, tickets.length, {
        source: sourceId,
        outcome: reply.status,
        delivery_id: deliveryId,
        status: 200,
        tickets,
        approvals,
        // A handler's own "ignored" (a review that starts no follow-up) says why, as the source's does.
        ...(reply.status === "ignored" ? { reason: reply.reason } : {}),
      });
    } catch (failure) {
      fail(x, failure);
    }
  });
}

/** The request's media type, when the source accepts it; a 415 naming the accepted ones otherwise. */
function acceptedMediaType(req: IncomingMessage, source: WebhookSource): string {
  const mediaType = mediaTypeOf(req);
  if (!source.mediaTypes.includes(mediaType)) {
    throw new WebhookError(
      415,
      WebhookErrorCode.UnsupportedMediaType,
      `content type ${mediaType} is not accepted; send ${source.mediaTypes.join(" or ")}`,
    );
  }
  return mediaType;
}

/** Media type without parameters, lower-case; JSON when the header is absent. */
function mediaTypeOf(req: IncomingMessage): string {
  const value = req.headers["content-type"];
  if (value === undefined) return "application/json";
  const semi = value.indexOf(";");
  return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
}
