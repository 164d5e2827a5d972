import { readFileSync } from "node:fs";
import type { Logger } from "@errand/channel-sdk";
import type { ChannelEntryConfig } from "../config/controller-config.js";
import type { Backoff } from "./backoff.js";
import { type ChannelHealth, createChannelHealth } from "./channel-health.js";
import { type ChannelProber, createChannelProber } from "./channel-prober.js";
import type { ChannelSetupProblem } from "./channel-setup-error.js";
import type { ChannelSource } from "./channel-source.js";
import { describeEntry } from "./describe-entry.js";
import { createPluginFinder } from "./find-plugin-package.js";
import type { NotifierMetrics } from "./notifier-metrics.js";
import { createChannelOpener } from "./open-channel.js";
import { resolveChannel } from "./resolve-channel.js";
import { SupervisedChannel } from "./supervised-channel.js";

/** One configured channel with everything the notifier keeps about it. */
export interface ChannelSlot {
  entry: ChannelEntryConfig;
  source: ChannelSource;
  supervised: SupervisedChannel;
  health: ChannelHealth;
  /** Plugins only: probes the channel's health check while it is unhealthy. */
  prober: ChannelProber | undefined;
  /** Carries the channel's label on every line. */
  logger: Logger;
}

/** What {@link createChannelSlots} needs. */
export interface SlotOptions {
  channels: readonly ChannelEntryConfig[];
  secrets: Readonly<Record<string, string>>;
  logger: Logger;
  metrics: NotifierMetrics;
  backoff: Backoff;
  unhealthyAfter: number;
  startTimeoutMs: number;
  /** Mean time between probes of an unhealthy plugin channel, and the bound of each, ms. */
  probe: { intervalMs: number; timeoutMs: number };
  /** The notifier's shutdown: stops the probes. */
  signal: AbortSignal;
  pluginsDir: string | undefined;
  controllerDir: string | undefined;
}

const HOST_VERSION = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/**
 * Resolves every entry (nothing is started yet) and collects every problem:
 * two entries with one label, an unknown backend, an unusable package or
 * command, a secret that was not resolved.
 */
export function createChannelSlots(options: SlotOptions): { slots: ChannelSlot[]; problems: ChannelSetupProblem[] } {
  const finder = createPluginFinder({ pluginsDir: options.pluginsDir, controllerDir: options.controllerDir });
  const slots: ChannelSlot[] = [];
  const problems: ChannelSetupProblem[] = [];
  const firstByLabel = new Map<string, ChannelEntryConfig>();
  for (const entry of options.channels) {
    const earlier = firstByLabel.get(entry.label);
    if (earlier) {
      problems.push({
        entry: describeEntry(entry),
        label: entry.label,
        message: `the label "${entry.label}" is already used by ${describeEntry(earlier)}`,
        fix: "give each entry its own name (name: team-room), so logs and metrics can tell them apart",
      });
      continue;
    }
    firstByLabel.set(entry.label, entry);
    const resolution = resolveChannel(entry, finder);
    if ("problem" in resolution) {
      problems.push(resolution.problem);
      continue;
    }
    const secrets: Record<string, string> = {};
    const missing = entry.secretNames.filter((name) => options.secrets[name] === undefined);
    for (const name of entry.secretNames)
      if (options.secrets[name] !== undefined) secrets[name] = options.secrets[name];
    if (missing.length > 0) {
      problems.push({
        entry: describeEntry(entry),
        label: entry.label,
        message: `the secret(s) ${missing.map((n) => `"${n}"`).join(", ")} named in its config were not resolved`,
        fix: "define each secret where the controller looks for secrets (an environment variable or a file in secrets.dir)",
      });
      continue;
    }
    slots.push(createSlot(entry, resolution.source, secrets, options));
  }
  return { slots, problems };
}

function createSlot(
  entry: ChannelEntryConfig,
  source: ChannelSource,
  secrets: Record<string, string>,
  options: SlotOptions,
): ChannelSlot {
  const logger = options.logger.child({ channel: entry.label, backend: entry.backend });
  const open = createChannelOpener({
    entry,
    source,
    secrets,
    logger,
    startTimeoutMs: options.startTimeoutMs,
    hostVersion: HOST_VERSION,
  });
  const supervised = new SupervisedChannel({
    label: entry.label,
    kind: source.kind === "builtin" ? "in-process" : "plugin",
    open,
    backoff: options.backoff,
    logger,
    onRestart: () => options.metrics.restarted(entry.label),
  });
  let prober: ChannelProber | undefined;
  const health = createChannelHealth({
    label: entry.label,
    unhealthyAfter: options.unhealthyAfter,
    logger,
    metrics: options.metrics,
    onUnhealthy: () => prober?.start(),
  });
  // A built-in runs in-process: it has no health service, and its process is the controller's, so only a delivery tells.
  if (source.kind !== "builtin") {
    prober = createChannelProber({
      label: entry.label,
      supervised,
      health,
      logger,
      metrics: options.metrics,
      signal: options.signal,
      ...options.probe,
    });
  }
  return { entry, source, supervised, health, prober, logger };
}
