import type { IncomingMessage, ServerResponse } from "node:http";
import type { SourceId } from "../config/webhook-config.js";
import { firstHeader } from "./auth/authenticator.js";
import { WebhookError, type WebhookErrorCode } from "./errors.js";
import { type Outcome, outcomeOfStatus } from "./metrics.js";
import type { WebhookSource } from "./parsing/source.js";
import { ClientGoneError } from "./read-body.js";
import type { RequestDeps } from "./request-deps.js";
import { sendError } from "./responses.js";

/** Counts and logs one answered request. */
export function finishRequest(
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
export function failRequest(
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

function deliveryIdOf(
  req: IncomingMessage,
  sources: ReadonlyMap<SourceId, WebhookSource>,
  source: string,
): string | undefined {
  const found = sources.get(source as SourceId);
  return found ? firstHeader(req.headers, found.deliveryHeaders) : undefined;
}
