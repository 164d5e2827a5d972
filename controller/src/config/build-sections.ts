import { collectSecretKeys, type SecretReference } from "../secrets/secret-references.js";
import { buildKubernetes } from "./build-kubernetes.js";
import { channelLabels } from "./channel-labels.js";
import type { ChannelEntryConfig, ExecutionConfig, NotificationsConfig } from "./controller-config.js";
import { resolveFrom } from "./resolve-from.js";
import type { ControllerDocument } from "./schema/controller-schema.js";

/** `notifications`, with labels and the secret names of each channel. */
export function buildNotifications(section: ControllerDocument["notifications"]): NotificationsConfig {
  const { labels } = channelLabels(section.channels);
  const channels: ChannelEntryConfig[] = section.channels.map((entry, index) => {
    const refs: SecretReference[] = [];
    collectSecretKeys(entry.config, "config", refs);
    return {
      label: labels[index] as string,
      backend: entry.backend,
      command: entry.command,
      config: entry.config,
      secretNames: [...new Set(refs.map((r) => r.name))],
      index,
    };
  });
  return { channels, callTimeoutMs: section.call_timeout_ms, unhealthyAfter: section.unhealthy_after, probeIntervalMs: section.probe_interval_ms, progressPerMinute: section.progress_per_minute };
}

/** `execution`, folders made absolute. */
export function buildExecution(section: ControllerDocument["execution"], baseDir: string): ExecutionConfig {
  const local = section.local;
  return {
    backend: section.backend,
    local: {
      workspaceDir: resolveFrom(baseDir, local.workspace_dir),
      logDir: resolveFrom(baseDir, local.log_dir),
      logMaxBytes: local.log_max_bytes,
      killGraceMs: local.kill_grace_ms,
      keepWorkspaces: local.keep_workspaces,
    },
    kubernetes: buildKubernetes(section, baseDir),
  };
}
