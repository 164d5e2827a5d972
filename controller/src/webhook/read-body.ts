import type { IncomingMessage } from "node:http";
import { WebhookError, WebhookErrorCode } from "./errors.js";

/** The client went away before the body was complete; nothing can be answered. */
export class ClientGoneError extends Error {
  override readonly name = "ClientGoneError";
}

function tooLarge(limit: number): WebhookError {
  return new WebhookError(413, WebhookErrorCode.PayloadTooLarge, `body is larger than webhook.max_body_bytes (${limit} bytes)`, {
    connection: "close",
  });
}

/**
 * Reads a request body of at most `limit` bytes. A declared Content-Length
 * over the limit is refused before a byte is read; a chunked body is refused
 * as soon as it crosses the limit, and what was read so far is dropped.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(tooLarge(limit));
  return new Promise<Buffer>((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onGone);
      req.off("close", onGone);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        chunks = [];
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onGone = () => {
      cleanup();
      reject(new ClientGoneError("the client closed the connection before sending the whole body"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onGone);
    req.on("close", onGone);
  });
}
