import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Compares two secrets in constant time without leaking their lengths:
 * both sides are hashed to 32 bytes first, so `timingSafeEqual` always
 * compares equal-length buffers.
 */
export function safeEqualSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

/**
 * Compares a hex digest a client sent with the digest computed here, in
 * constant time. A value that is not 64 hex digits fails at once: its shape
 * tells nothing about the secret.
 */
export function safeEqualHexDigest(givenHex: string, expected: Buffer): boolean {
  if (!HEX64.test(givenHex)) return false;
  return timingSafeEqual(Buffer.from(givenHex, "hex"), expected);
}
