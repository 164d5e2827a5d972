import type { Authenticator } from "./authenticator.js";
import { firstHeader } from "./authenticator.js";
import { safeEqualSecret } from "./constant-time.js";
import { display } from "./hmac.js";

/** A shared secret sent as is in a header (code host B), checked before the body is read. */
export function createTokenAuthenticator(secret: string, headers: readonly string[]): Authenticator {
  const shown = headers.map(display).join(" or ");
  return {
    checkHeaders(h) {
      const given = firstHeader(h, headers);
      if (given === undefined) return `missing token header ${shown}`;
      return safeEqualSecret(given, secret) ? undefined : `token in ${shown} is not the configured secret`;
    },
    checkBody: () => undefined,
  };
}

/** `Authorization: Bearer <secret>` (generic `bearer`), checked before the body is read. */
export function createBearerAuthenticator(secret: string): Authenticator {
  return {
    checkHeaders(h) {
      const value = firstHeader(h, ["authorization"]);
      const match = value === undefined ? null : /^bearer[ \t]+(.+)$/i.exec(value.trim());
      if (!match?.[1]) return "missing Authorization: Bearer <secret> header";
      return safeEqualSecret(match[1], secret) ? undefined : "bearer token is not the configured secret";
    },
    checkBody: () => undefined,
  };
}
