import { createHmac, timingSafeEqual } from "node:crypto";
import type { Authenticator } from "./authenticator.js";
import { firstHeader } from "./authenticator.js";
import { checkTimestamp } from "./timestamp.js";

const MAX_SIGNATURES = 16;

/**
 * The Standard Webhooks scheme: `webhook-signature` holds space-separated
 * `v1,<base64 HMAC-SHA256>` entries over `<webhook-id>.<webhook-timestamp>.<body>`,
 * keyed with the base64 part of a `whsec_` secret. Any matching entry passes,
 * which lets a sender rotate keys.
 */
export function createStandardWebhooksAuthenticator(secret: string): Authenticator {
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
  return {
    checkHeaders(headers, nowMs) {
      if (firstHeader(headers, ["webhook-id"]) === undefined) return "missing header webhook-id";
      if (firstHeader(headers, ["webhook-signature"]) === undefined) return "missing header webhook-signature";
      return checkTimestamp(firstHeader(headers, ["webhook-timestamp"]), "webhook-timestamp", nowMs);
    },
    checkBody(headers, body) {
      const id = firstHeader(headers, ["webhook-id"]) ?? "";
      const timestamp = (firstHeader(headers, ["webhook-timestamp"]) ?? "").trim();
      // Compared as canonical base64 text, so a re-encoded or padded variant of a signature does not pass.
      const expected = Buffer.from(
        createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest("base64"),
      );
      const entries = (firstHeader(headers, ["webhook-signature"]) ?? "").split(" ").slice(0, MAX_SIGNATURES);
      let ok = false;
      for (const entry of entries) {
        if (!entry.startsWith("v1,")) continue;
        const given = Buffer.from(entry.slice(3));
        // Every entry is compared, so the time taken does not reveal which one matched.
        if (given.length === expected.length && timingSafeEqual(given, expected)) ok = true;
      }
      return ok ? undefined : "no v1 signature in webhook-signature matches the body";
    },
  };
}
