import type { IncomingHttpHeaders } from "node:http";
import { sleep } from "@errand/channel-sdk/helpers";
import type { Pacer } from "@errand/chat-kit";

/** What a response's rate-limit headers say about the webhook's bucket. */
export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  /** Time until the bucket refills, in ms (from `X-RateLimit-Reset-After`, relative, so no clock skew). */
  resetAfterMs?: number;
  bucket?: string;
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const number = (value: string | undefined): number | undefined => {
  if (value === undefined || !/^\d+(\.\d+)?$/.test(value.trim())) return undefined;
  return Number(value);
};

/**
 * Reads the platform's rate-limit headers (`X-RateLimit-Limit`,
 * `-Remaining`, `-Reset-After`, `-Bucket`; https://discord.com/developers/docs/topics/rate-limits#header-format).
 */
export function readRateLimit(headers: IncomingHttpHeaders): RateLimitInfo {
  const resetAfter = number(header(headers, "x-ratelimit-reset-after"));
  return {
    limit: number(header(headers, "x-ratelimit-limit")),
    remaining: number(header(headers, "x-ratelimit-remaining")),
    resetAfterMs: resetAfter === undefined ? undefined : Math.ceil(resetAfter * 1000),
    bucket: header(headers, "x-ratelimit-bucket"),
  };
}

/**
 * Until headers say otherwise: 5 requests per 2 seconds per webhook, the
 * rate webhooks have long reported (X-RateLimit-Limit: 5, a 2 s reset; see
 * discord/discord-api-docs#367 and #6753).
 */
export const DEFAULT_WINDOW = { limit: 5, windowMs: 2000 } as const;

/**
 * A webhook's bucket as the platform last described it. The platform asks
 * clients not to hard-code its limits but to follow these headers
 * (https://discord.com/developers/docs/topics/rate-limits): when a response
 * says no request remains, the next one waits for the reset. Before any
 * headers arrive (the first burst, or an endpoint that sends none), a
 * sliding window of {@link DEFAULT_WINDOW} keeps the burst inside the
 * usual limit.
 *
 * It is the {@link Pacer} of the webhook's delivery lane. It stays here
 * rather than in the SDK: it follows this platform's header set and its
 * undocumented default window.
 */
export class WebhookBucket implements Pacer {
  private resumeAt = 0;
  private readonly sent: number[] = [];
  /** The last headers seen, for logs and the benchmark. */
  last: RateLimitInfo = {};

  constructor(private readonly fallback: { limit: number; windowMs: number } = DEFAULT_WINDOW) {}

  /** Takes note of a request leaving now (for the fallback window). */
  sending(now = Date.now()): void {
    this.sent.push(now);
    if (this.sent.length > this.fallback.limit) this.sent.shift();
  }

  /** Takes note of a successful (or refused) response's headers. */
  update(headers: IncomingHttpHeaders, now = Date.now()): void {
    const info = readRateLimit(headers);
    this.last = info;
    if (info.remaining === 0 && info.resetAfterMs !== undefined) this.pause(info.resetAfterMs, now);
  }

  /** True while the platform's headers describe the bucket. */
  private get informed(): boolean {
    return this.last.remaining !== undefined && this.last.resetAfterMs !== undefined;
  }

  /** Holds the next request back for `ms` (a 429's retry_after, or an exhausted bucket). */
  pause(ms: number, now = Date.now()): void {
    this.resumeAt = Math.max(this.resumeAt, now + ms);
  }

  /** How long the next request has to wait, in ms. */
  waitMs(now = Date.now()): number {
    const paused = this.resumeAt - now;
    const oldest = this.sent[0];
    const windowed =
      !this.informed && this.sent.length >= this.fallback.limit && oldest !== undefined
        ? oldest + this.fallback.windowMs - now
        : 0;
    return Math.max(0, paused, windowed);
  }

  /** Waits until the bucket allows the next request, or `signal` aborts. */
  async ready(signal?: AbortSignal): Promise<void> {
    const ms = this.waitMs();
    if (ms > 0) await sleep(ms, signal);
  }

  // The Pacer side: one bucket per webhook, so the lane's key is not needed.

  /** {@link Pacer.msUntilSlot}: {@link waitMs}. */
  msUntilSlot(): number {
    return this.waitMs();
  }

  /** {@link Pacer.wait}: waits until the bucket allows a request and notes that it leaves. */
  async wait(_key: string, signal?: AbortSignal): Promise<void> {
    await this.ready(signal);
    this.sending();
  }

  /** {@link Pacer.penalize}: {@link pause}. */
  penalize(_key: string, ms: number): void {
    this.pause(ms);
  }
}
