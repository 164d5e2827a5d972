import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "@errand/channel-sdk";
import { WebhookErrorCode } from "./errors.js";
import { NO_SOURCE, outcomeOfStatus, type WebhookMetrics } from "./metrics.js";

const ANSWERS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, WebhookErrorCode.HeadersTooLarge, "request headers are larger than webhook.max_header_bytes"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, WebhookErrorCode.RequestTimeout, "the request was not received in time"],
};

/**
 * Answers what Node's HTTP parser refused (bad syntax, oversized headers,
 * slow clients) with the same JSON error shape as every other answer.
 */
export function createClientErrorHandler(logger: Logger, metrics: WebhookMetrics): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    const [status, code, message] = ANSWERS[error.code ?? ""] ?? [400, WebhookErrorCode.InvalidBody, "the request is not valid HTTP"];
    metrics.observe(NO_SOURCE, outcomeOfStatus(status), 0, 0);
    logger.info("webhook request refused by the HTTP parser", { outcome: outcomeOfStatus(status), status, error: error.code });
    const inProgress = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || inProgress?.headersSent) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify({ error: { code, message } });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  };
}
