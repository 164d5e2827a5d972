import type { TokenUsage } from "../channel.js";

/**
 * A duration for humans, at most two units, rounded down:
 * `850ms`, `12s`, `3m 05s`, `1h 2m`, `2d 3h`. `undefined` gives `undefined`
 * (TaskResult.durationMs is optional); a negative or non-finite number gives
 * `"unknown"`.
 */
export function formatDuration(ms: number): string;
export function formatDuration(ms: number | undefined): string | undefined;
export function formatDuration(ms: number | undefined): string | undefined {
  if (ms === undefined) return undefined;
  if (!Number.isFinite(ms) || ms < 0) return "unknown";
  if (ms < 1000) return `${Math.floor(ms)}ms`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${pad(seconds % 60)}s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ${minutes % 60}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 });

/**
 * A cost in US dollars: `$0.42`, `$12.30`, `$1,234.50`; a positive amount
 * under one cent is `<$0.01`; `undefined` gives `undefined`; a negative or
 * non-finite number gives `"unknown"`.
 */
export function formatCost(usdAmount: number): string;
export function formatCost(usdAmount: number | undefined): string | undefined;
export function formatCost(usdAmount: number | undefined): string | undefined {
  if (usdAmount === undefined) return undefined;
  if (!Number.isFinite(usdAmount) || usdAmount < 0) return "unknown";
  if (usdAmount > 0 && usdAmount < 0.01) return "<$0.01";
  return usd.format(usdAmount);
}

/**
 * A token count, compact: `950`, `12.3k`, `12k`, `1.2M`.
 */
export function formatCount(count: number): string {
  if (!Number.isFinite(count) || count < 0) return "unknown";
  if (count < 1000) return String(Math.round(count));
  const scaled = (value: number, suffix: string) => `${(Math.round(value * 10) / 10).toString()}${suffix}`;
  // 999_950 rounds to 1000.0k: promote to the next unit instead.
  if (Math.round(count / 100) < 10_000) return scaled(count / 1000, "k");
  if (Math.round(count / 100_000) < 10_000) return scaled(count / 1_000_000, "M");
  return scaled(count / 1_000_000_000, "B");
}

/**
 * Token usage in one line: `12.3k in / 4.5k out`, with cached input shown
 * when there is some: `12.3k in (8k cached) / 4.5k out`. `undefined` gives
 * `undefined` (TaskResult.tokenUsage is optional).
 */
export function formatTokens(usage: TokenUsage): string;
export function formatTokens(usage: TokenUsage | undefined): string | undefined;
export function formatTokens(usage: TokenUsage | undefined): string | undefined {
  if (usage === undefined) return undefined;
  const cached = usage.cachedInputTokens > 0 ? ` (${formatCount(usage.cachedInputTokens)} cached)` : "";
  return `${formatCount(usage.inputTokens)} in${cached} / ${formatCount(usage.outputTokens)} out`;
}
