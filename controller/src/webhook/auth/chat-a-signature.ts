import { createHmac, createSecretKey } from "node:crypto";
import type { Authenticator } from "./authenticator.js";
import { firstHeader } from "./authenticator.js";
import { safeEqualHexDigest } from "./constant-time.js";
import { checkTimestamp } from "./timestamp.js";

const SIGNATURE = ["x-chat-signature", "x-slack-signature"] as const;
const TIMESTAMP = ["x-chat-request-timestamp", "x-slack-request-timestamp"] as const;

/**
 * Chat A's request signing: `v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<raw body>`,
 * with the timestamp within five minutes of server time.
 */
export function createChatASignatureAuthenticator(secret: string): Authenticator {
  const key = createSecretKey(Buffer.from(secret, "utf8"));
  return {
    checkHeaders(headers, nowMs) {
      if (firstHeader(headers, SIGNATURE) === undefined)
        return "missing signature header X-Chat-Signature or X-Slack-Signature";
      return checkTimestamp(
        firstHeader(headers, TIMESTAMP),
        "X-Chat-Request-Timestamp or X-Slack-Request-Timestamp",
        nowMs,
      );
    },
    checkBody(headers, body) {
      const given = firstHeader(headers, SIGNATURE) ?? "";
      const timestamp = (firstHeader(headers, TIMESTAMP) ?? "").trim();
      if (!given.startsWith("v0=")) return "signature must have the form v0=<hex>";
      const expected = createHmac("sha256", key).update(`v0:${timestamp}:`).update(body).digest();
      return safeEqualHexDigest(given.slice(3).trim(), expected)
        ? undefined
        : "signature does not match the timestamp and body";
    },
  };
}
