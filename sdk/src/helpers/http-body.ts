import type { Readable } from "node:stream";

/** A response body read with a size cap. */
export interface ReadBody {
  text: string;
  /** True when the body was longer than the cap and reading stopped there. */
  truncated: boolean;
}

/**
 * Reads at most `maxBytes` of `body` as UTF-8. Beyond the cap the stream is
 * destroyed, so a huge answer never fills memory.
 */
export async function readBody(body: Readable, maxBytes: number): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    if (size + buffer.length > maxBytes) {
      chunks.push(buffer.subarray(0, maxBytes - size));
      truncated = true;
      body.destroy();
      break;
    }
    chunks.push(buffer);
    size += buffer.length;
  }
  return { text: Buffer.concat(chunks).toString("utf8"), truncated };
}

/**
 * Parses `text` as JSON when the content type says JSON or the text looks
 * like an object or array; `undefined` when it is not JSON.
 */
export function parseJsonBody(text: string, contentType: string | undefined): unknown {
  const looksJson = /^\s*[[{]/.test(text);
  if (!looksJson && !(contentType && /json/i.test(contentType))) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
