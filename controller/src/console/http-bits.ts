import type { IncomingMessage, ServerResponse } from "node:http";

/** Longest form body the console reads: its forms carry a token and a CSRF field. */
const MAX_FORM_BYTES = 8192;

/**
 * Headers on every console answer: a Content-Security-Policy that lets the page load only its own stylesheet and
 * script (no inline script, so markup that slipped through escaping would not run), no framing, no sniffing, no
 * referrer to other sites (run pages carry ids; `same-origin` rather than `no-referrer`, under which browsers send
 * `Origin: null` on the console's own form posts), no caching (pages show live state).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
};

/** Answers with `body` and the security headers. */
export function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string | string[]> = {},
): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    "content-type": type,
    "content-length": String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

/** A 303 to `location` (after a form post, so a reload does not post again). */
export function redirect(res: ServerResponse, location: string, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(303, { ...SECURITY_HEADERS, location, ...headers });
  res.end();
}

/** The request's urlencoded form; undefined when it is larger than the console's forms can be. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}
