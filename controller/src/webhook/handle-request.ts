import type { IncomingMessage, ServerResponse } from "node:http";
import { WebhookError, WebhookErrorCode } from "./errors.js";
import { NO_SOURCE } from "./metrics.js";
import type { RequestDeps } from "./request-deps.js";
import { failRequest } from "./request-outcome.js";
import { sendText } from "./responses.js";
import { ROUTES, routePath } from "./routes.js";
import { serveSource } from "./serve-source.js";

export type { RequestDeps } from "./request-deps.js";

const ROUTE_LIST = [...ROUTES.keys()].join(", ");

/**
 * Creates the `request` listener of the webhook server. A webhook POST runs
 * as plain callbacks: headers are checked, the body is read, authenticated,
 * parsed and mapped inside its `end` event, and the answer is written as
 * soon as the hand-off settled; the only promise hop is the ticket
 * handler's own (and the dedupe store's, if it is asynchronous).
 */
export function createRequestHandler(deps: RequestDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const fail = (req: IncomingMessage, res: ServerResponse, source: string, error: unknown, started: number) =>
    failRequest(deps, req, res, source, error, started);

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
      serveSource({ deps, req, res, sourceId, started });
    } catch (error) {
      fail(req, res, sourceId, error, started);
    }
  };
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
