import type { IncomingHttpHeaders } from "node:http";

/**
 * Authenticates requests of one source. Both methods return undefined on
 * success or a message for the 401 answer (never containing a secret).
 */
export interface Authenticator {
  /** Checks that need only headers (a token, a timestamp); run before the body is read. */
  checkHeaders(headers: IncomingHttpHeaders, nowMs: number): string | undefined;
  /** Checks over the raw body (signatures); run before the body is parsed. */
  checkBody(headers: IncomingHttpHeaders, body: Buffer, nowMs: number): string | undefined;
}

/** Lets every request through: tracker B without a secret, generic with `auth_mode: none`. */
export const openAuthenticator: Authenticator = {
  checkHeaders: () => undefined,
  checkBody: () => undefined,
};

/** The first non-empty value among `names` (lower-case header names). */
export function firstHeader(headers: IncomingHttpHeaders, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = headers[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (text !== undefined && text !== "") return text;
  }
  return undefined;
}
