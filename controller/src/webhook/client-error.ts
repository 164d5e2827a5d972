import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "@errand/channel-sdk";
import { WebhookErrorCode } from "./errors.js";
import { NO_SOURCE, outcomeOfStatus, type WebhookMetrics } from "./metrics.js";

const ANSWERS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    WebhookErrorCode.HeadersTooLarge,
    "request headers are larger than webhook.max_header_bytes",
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, WebhookErrorCode.RequestTimeout, "the request was not received in time"],
};

/** Connections already answered here: what the parser reports after that (the client's EOF) is not a new request. */
const answered = new WeakSet<Duplex>();

/** Writes a complete JSON error response on a raw socket and closes it. */
function answer(socket: Duplex, status: number, code: string, message: string, extraHeaders = ""): void {
  answered.add(socket);
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n${extraHeaders}`
      + `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Answers what Node's HTTP parser refused (bad syntax, oversized headers,
 * slow clients) with the same JSON error shape as every other answer,
 * counted and logged once per connection.
 */
export function createClientErrorHandler(
  logger: Logger,
  metrics: WebhookMetrics,
): (error: Error & { code?: string }, socket: Duplex) => void {
  return (error, socket) => {
    if (answered.has(socket)) {
      socket.destroy();
      return;
    }
    const [status, code, message] = ANSWERS[error.code ?? ""] ?? [
      400,
      WebhookErrorCode.InvalidBody,
      "the request is not valid HTTP",
    ];
    metrics.observe(NO_SOURCE, outcomeOfStatus(status), 0, 0);
    logger.info("webhook request refused by the HTTP parser", {
      outcome: outcomeOfStatus(status),
      status,
      error: error.code,
    });
    const inProgress = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || inProgress?.headersSent) {
      socket.destroy();
      return;
    }
    answer(socket, status, code, message);
  };
}

/**
 * Answers `CONNECT` (which node:http hands over as a raw socket instead of
 * a request) with 405 like any other method the routes do not serve.
 */
export function createConnectHandler(
  logger: Logger,
  metrics: WebhookMetrics,
): (req: IncomingMessage, socket: Duplex) => void {
  return (req, socket) => {
    metrics.observe(NO_SOURCE, "method_not_allowed", 0, 0);
    logger.info("webhook request", {
      source: NO_SOURCE,
      outcome: "method_not_allowed",
      status: 405,
      method: "CONNECT",
    });
    // A tunnel request carries no body to wait for: answer and close.
    socket.on("error", () => socket.destroy());
    answer(
      socket,
      405,
      WebhookErrorCode.MethodNotAllowed,
      `CONNECT ${req.url ?? ""} is not served: webhook routes take POST, /healthz GET`,
      "allow: GET, HEAD, POST\r\n",
    );
  };
}
