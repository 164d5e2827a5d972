import type { Logger } from "@errand/channel-sdk";
import type { Registry } from "prom-client";
import type { ControllerConfig } from "../config/controller-config.js";
import type { Notifier } from "../notify/notifier-types.js";

/** The notifier of `notifications.channels`; undefined when none are configured. */
export async function createConfiguredNotifier(
  config: ControllerConfig,
  secrets: Readonly<Record<string, string>>,
  logger: Logger,
  registry: Registry,
): Promise<Notifier | undefined> {
  const n = config.notifications;
  if (n.channels.length === 0) return undefined;
  // Loaded only with channels: the notifier brings gRPC and the built-in channels (start-up time).
  const { createNotifier } = await import("../notify/create-notifier.js");
  return createNotifier({
    channels: n.channels,
    secrets,
    callTimeoutMs: n.callTimeoutMs,
    unhealthyAfter: n.unhealthyAfter,
    probeIntervalMs: n.probeIntervalMs,
    progressPerMinute: n.progressPerMinute,
    logger: logger.child({ component: "notifications" }),
    registry,
    pluginsDir: config.pluginsDir,
  });
}
