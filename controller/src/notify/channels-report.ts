import type { Logger } from "@errand/channel-sdk";
import { Registry } from "prom-client";
import type { ControllerConfig } from "../config/controller-config.js";
import { createNotifier } from "./create-notifier.js";
import type { ChannelStatus, CheckResult, Notifier } from "./notifier-types.js";

/** What `errand channels` needs: the loaded configuration and its resolved secrets. */
export interface ChannelsInput {
  config: ControllerConfig;
  secrets: Record<string, string>;
  logger: Logger;
}

async function withNotifier<T>(input: ChannelsInput, body: (notifier: Notifier) => Promise<T>): Promise<T> {
  const { notifications, pluginsDir } = input.config;
  const notifier = createNotifier({
    channels: notifications.channels,
    secrets: input.secrets,
    callTimeoutMs: notifications.callTimeoutMs,
    unhealthyAfter: notifications.unhealthyAfter,
    progressPerMinute: notifications.progressPerMinute,
    logger: input.logger,
    registry: new Registry(),
    pluginsDir,
  });
  try {
    await notifier.start();
    return await body(notifier);
  } finally {
    await notifier.close();
  }
}

/**
 * Starts every configured channel as the controller would (a plugin's
 * Handshake included, nothing sent), reports what each said about itself,
 * and stops them. Rejects with ChannelSetupError for a configuration the
 * controller would refuse.
 */
export function listChannels(input: ChannelsInput): Promise<ChannelStatus[]> {
  return withNotifier(input, async (notifier) => notifier.list());
}

/** Starts the channels and sends one marked test notification through each (or the one labelled `label`). */
export function checkChannels(input: ChannelsInput, label?: string): Promise<CheckResult[]> {
  return withNotifier(input, (notifier) => notifier.check(label));
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  "))
    .join("\n");
}

/** `errand channels list` as a table: label, backend, where found, versions, state and health. */
export function formatChannelList(statuses: readonly ChannelStatus[]): string {
  const rows = [["LABEL", "BACKEND", "VERSION", "INTERFACE", "STATE", "HEALTH", "FOUND"]];
  for (const s of statuses) {
    const health = s.healthy ? "healthy" : `unhealthy (${s.consecutiveFailures} failures)`;
    rows.push([
      s.label,
      s.backend,
      s.version ?? "-",
      s.interfaceVersion === undefined ? "-" : String(s.interfaceVersion),
      s.state,
      health,
      s.source.where,
    ]);
  }
  const notes = statuses.filter((s) => s.downReason !== undefined).map((s) => `${s.label}: ${s.downReason}`);
  return `${table(rows)}\n${notes.map((n) => `\n${n}`).join("")}${notes.length ? "\n" : ""}`;
}

/** `errand channels check` as lines: ok or failed, the time taken, the error and its hint. */
export function formatCheckResults(results: readonly CheckResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${r.ok ? "ok    " : "FAILED"}  ${r.label} (${r.backend})  ${r.durationMs} ms`);
    if (r.error) lines.push(`        ${r.error.code}: ${r.error.message.split("\n")[0]}`);
    if (r.error?.hint) lines.push(`        hint: ${r.error.hint}`);
  }
  const failed = results.filter((r) => !r.ok).length;
  lines.push(
    `${results.length} channel${results.length === 1 ? "" : "s"} checked: ${results.length - failed} ok, ${failed} failed`,
  );
  return `${lines.join("\n")}\n`;
}
