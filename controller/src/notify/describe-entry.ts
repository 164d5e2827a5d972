import type { ChannelEntryConfig } from "../config/controller-config.js";

/**
 * How messages name a configured channel: its place in the file and its
 * backend, plus its label when that differs (`chat_a#2`, a `name`), e.g.
 * `notifications.channels[2] (backend "team_alerts")`.
 */
export function describeEntry(entry: Pick<ChannelEntryConfig, "index" | "backend" | "label">): string {
  const label = entry.label === entry.backend ? "" : `, label "${entry.label}"`;
  return `notifications.channels[${entry.index}] (backend "${entry.backend}"${label})`;
}
