import type { IncomingMessage } from "node:http";
import { WebhookError, WebhookErrorCode } from "./errors.js";

/** The client went away before the body was complete; nothing can be answered. */
export class ClientGoneError extends Error {
  override readonly name = "ClientGoneError";
}

/** Receives the whole body, or why there is none. */
export type BodyCallback = (error: WebhookError | ClientGoneError | undefined, body: Buffer) => void;

const NO_BODY = Buffer.alloc(0);

function tooLarge(limit: number): WebhookError {
  return new WebhookError(
    413,
    WebhookErrorCode.PayloadTooLarge,
    `body is larger than webhook.max_body_bytes (${limit} bytes)`,
    {
      connection: "close",
    },
  );
}

/**
 * Reads a request body of at most `limit` bytes and calls `done` once. A
 * declared Content-Length over the limit is refused before a byte is read;
 * a chunked body is refused as soon as it crosses the limit, and what was
 * read so far is dropped. A callback rather than a promise: the rest of the
 * request runs in the `end` event, without a microtask hop.
 */
export function readBody(req: IncomingMessage, limit: number, done: BodyCallback): void {
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > limit) {
    done(tooLarge(limit), NO_BODY);
    return;
  }
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let size = 0;
  let settled = false;
  // The listeners stay attached once settled (they then do nothing): removing
  // four listeners costs more than leaving them on a request that is about
  // to be dropped. No 'error' listener is needed: node:http emits 'error' on
  // an aborted request only when someone listens, and 'close' reports it.
  const onData = (chunk: Buffer) => {
    if (settled) return;
    size += chunk.length;
    if (size > limit) {
      settled = true;
      first = chunks = undefined;
      done(tooLarge(limit), NO_BODY);
    } else if (first === undefined) first = chunk;
    else (chunks ??= [first]).push(chunk);
  };
  const onEnd = () => {
    if (settled) return;
    settled = true;
    const body = chunks !== undefined ? Buffer.concat(chunks, size) : (first ?? NO_BODY);
    first = chunks = undefined;
    done(undefined, body);
  };
  const onClose = () => {
    if (settled) return;
    settled = true;
    first = chunks = undefined;
    done(new ClientGoneError("the client closed the connection before sending the whole body"), NO_BODY);
  };
  req.on("data", onData);
  req.on("end", onEnd);
  req.on("close", onClose);
}
