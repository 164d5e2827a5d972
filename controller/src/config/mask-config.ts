import { MASK } from "../secrets/mask-secrets.js";
import type { ControllerConfig } from "./controller-config.js";
import type { ControllerDocument } from "./schema/controller-schema.js";

type Mapping = Record<string, unknown>;
const isMapping = (v: unknown): v is Mapping => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The configuration as `errand config check` prints it: errand.yaml's own
 * keys and units (`ops.shutdown_grace_seconds`, durations in seconds), every
 * default filled in (`webhook.enabled` and `engines.default` as decided),
 * relative paths made absolute, and a signing secret
 * written inline in the file masked as `***` (a `{ secret }`, `{ env }` or
 * `{ file }` reference is kept: it names where the value is, not the value).
 * Written back as errand.yaml, it passes the same check.
 */
export function printableConfig(document: ControllerDocument, config: ControllerConfig): Mapping {
  const out = structuredClone(document) as Mapping & ControllerDocument;
  // What the controller decided where the file left it open, written as a file would say it.
  out.webhook = { enabled: config.webhook.enabled, ...out.webhook };
  if (config.engines.default !== "") (out as Mapping).engines = { default: config.engines.default, ...out.engines };
  const local = out.execution.local;
  local.workspace_dir = config.execution.local.workspaceDir;
  local.log_dir = config.execution.local.logDir;
  if (config.store.backend === "sqlite") out.store.path = config.store.path;
  if (config.pluginsDir !== undefined) out.plugins.dir = config.pluginsDir;
  if (config.secrets.dir !== undefined) out.secrets.dir = config.secrets.dir;
  for (const engine of Object.values(config.engines.byName)) {
    const entry = (out.engines as Mapping)[engine.name];
    if (engine.command !== undefined && isMapping(entry)) entry.command = [...engine.command];
  }
  for (const channel of config.notifications.channels) {
    const entry = out.notifications.channels[channel.index] as Mapping | undefined;
    if (channel.command !== undefined && entry !== undefined) entry.command = [...channel.command];
  }
  const webhook = out.webhook as Mapping;
  const masked = (holder: unknown, key: string) => {
    if (isMapping(holder) && typeof holder[key] === "string") holder[key] = MASK;
  };
  for (const key of Object.keys((webhook.secrets as Mapping | undefined) ?? {})) masked(webhook.secrets, key);
  masked(webhook.generic, "secret");
  masked(webhook.shortcut, "secret");
  return withoutUndefined(out) as Mapping;
}

/** Drops keys whose value is undefined: YAML would print them as `null`, which reads back as an empty key. */
function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (!isMapping(value)) return value;
  return Object.fromEntries(
    Object.entries(value).flatMap(([k, v]) => (v === undefined ? [] : [[k, withoutUndefined(v)]])),
  );
}
