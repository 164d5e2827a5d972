import { createHmac, createSecretKey } from "node:crypto";
import type { Authenticator } from "./authenticator.js";
import { firstHeader } from "./authenticator.js";
import { safeEqualHexDigest } from "./constant-time.js";

/** Options of {@link createHmacAuthenticator}. */
export interface HmacAuthOptions {
  secret: string;
  /** Header names, neutral first, lower-case. */
  headers: readonly string[];
  /** `required`: the value must start with `sha256=`; `optional`: with or without. */
  prefix: "required" | "optional";
}

/** HMAC-SHA256 of the raw body, sent as hex (code host A, tracker B, generic `hmac`). */
export function createHmacAuthenticator(options: HmacAuthOptions): Authenticator {
  const shown = options.headers.map(display).join(" or ");
  // A KeyObject made once spares each request the conversion of the secret.
  const key = createSecretKey(Buffer.from(options.secret, "utf8"));
  return {
    checkHeaders(headers) {
      return firstHeader(headers, options.headers) === undefined ? `missing signature header ${shown}` : undefined;
    },
    checkBody(headers, body) {
      let value = firstHeader(headers, options.headers) ?? "";
      if (value.startsWith("sha256=")) value = value.slice(7);
      else if (options.prefix === "required") return `signature header ${shown} must have the form sha256=<hex>`;
      const expected = createHmac("sha256", key).update(body).digest();
      return safeEqualHexDigest(value.trim(), expected) ? undefined : `signature in ${shown} does not match the body`;
    },
  };
}

/** Words that header names spell in mixed case, as the spec and the vendors write them. */
const MIXED_CASE: Readonly<Record<string, string>> = { hosta: "HostA", hostb: "HostB", github: "GitHub" };

/** `x-hub-signature-256` as `X-Hub-Signature-256`, `x-hostb-token` as `X-HostB-Token`, for messages. */
export function display(header: string): string {
  return header
    .split("-")
    .map((word) => MIXED_CASE[word] ?? word.charAt(0).toUpperCase() + word.slice(1))
    .join("-");
}
