import { createHmac } from "node:crypto";

/** Hex HMAC-SHA256. */
export function hmacHex(secret: string | Buffer, body: string | Buffer): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

/** Code host A's `X-Hub-Signature-256` value. */
export function hostASignature(secret: string, body: string | Buffer): string {
  return `sha256=${hmacHex(secret, body)}`;
}

/** Chat A's headers for `body` at `timestamp` (seconds). */
export function chatAHeaders(secret: string, body: string, timestamp: number, vendor = false): Record<string, string> {
  const signature = `v0=${hmacHex(secret, `v0:${timestamp}:${body}`)}`;
  return vendor
    ? { "x-slack-signature": signature, "x-slack-request-timestamp": String(timestamp) }
    : { "x-chat-signature": signature, "x-chat-request-timestamp": String(timestamp) };
}

/** Standard Webhooks headers for `body`, signed with a `whsec_` secret. */
export function standardWebhooksHeaders(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": `v1,${signature}` };
}

/** The current Unix time in seconds. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
