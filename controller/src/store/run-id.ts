import { randomFillSync } from "node:crypto";

/** Crockford's base32 alphabet, lowercase (no i, l, o, u). */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const RANDOM_BITS = 80n;
const RANDOM_LIMIT = 1n << RANDOM_BITS;

let lastTime = -1;
let lastRandom = 0n;

function encode(value: bigint, length: number): string {
  let text = "";
  for (let i = 0; i < length; i++) {
    text = ALPHABET[Number(value & 31n)] + text;
    value >>= 5n;
  }
  return text;
}

function freshRandom(): bigint {
  const bytes = randomFillSync(new Uint8Array(10));
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

/**
 * A new TaskRun id: `run_` + 26 lowercase Crockford base32 characters, a
 * ULID (48-bit millisecond time, 80 random bits from the system's CSPRNG).
 * Ids made in one process are strictly increasing, also within one
 * millisecond or when the clock steps back (the random part then counts
 * up from the last id), so sorting by id sorts by creation.
 */
export function newRunId(now: number = Date.now()): string {
  let time = Math.max(0, Math.floor(now));
  if (time <= lastTime) {
    time = lastTime;
    lastRandom += 1n;
    if (lastRandom >= RANDOM_LIMIT) {
      time += 1;
      lastRandom = freshRandom();
    }
  } else {
    lastRandom = freshRandom();
  }
  lastTime = time;
  return `run_${encode(BigInt(time), 10)}${encode(lastRandom, 16)}`;
}

/** True when `id` has the shape {@link newRunId} makes. */
export function isRunId(id: string): boolean {
  return /^run_[0-9a-hjkmnp-tv-z]{26}$/.test(id);
}
