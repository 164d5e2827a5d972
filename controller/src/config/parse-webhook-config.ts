import { type ConfigProblem, ConfigError } from "./config-error.js";
import { checkKnownKeys, isMapping, type Mapping, readBoolean, readInteger, readMapping, readString } from "./fields.js";
import { parseGenericConfig } from "./parse-generic-config.js";
import { resolveSecret, type SecretContext } from "./secret-ref.js";
import { SECRET_KEY_ALIASES, type SecretSourceId, WEBHOOK_DEFAULTS, type WebhookConfig } from "./webhook-config.js";

const P = "webhook";
const KNOWN = [
  "enabled", "port", "host", "path_prefix", "secrets", "shortcut_target_state_id", "generic",
  "max_body_bytes", "max_header_bytes", "timeouts", "dedupe", "metrics", "shortcut",
];
const DAY_MS = 24 * 60 * 60 * 1000;

/** A validated webhook configuration and the warnings to show at start. */
export interface ParsedWebhookConfig {
  config: WebhookConfig;
  warnings: string[];
}

/**
 * Validates the `webhook` section of a configuration document (the whole
 * document is passed: other top-level sections belong to other parts of the
 * controller and are left alone). Throws one {@link ConfigError} listing
 * every problem.
 */
export function parseWebhookConfig(document: unknown, ctx: SecretContext, file?: string): ParsedWebhookConfig {
  const problems: ConfigProblem[] = [];
  const warnings: string[] = [];
  if (document !== null && document !== undefined && !isMapping(document)) {
    throw new ConfigError([{ key: "(top level)", message: "is not a mapping", fix: "start the file with webhook: and indented keys" }], file);
  }
  const root = (document ?? {}) as Mapping;
  const section = readMapping(root, "webhook", "(top level)", problems);
  checkKnownKeys(section, P, KNOWN, problems);
  const prefix = readString(section, "path_prefix", P, "/webhooks", problems);
  if (prefix !== "/webhooks") {
    problems.push({ key: `${P}.path_prefix`, message: "is fixed at /webhooks", fix: "remove the key or set it to /webhooks" });
  }
  const timeouts = readMapping(section, "timeouts", P, problems);
  checkKnownKeys(timeouts, `${P}.timeouts`, ["headers_ms", "request_ms", "keep_alive_ms", "handler_ms", "shutdown_ms"], problems);
  const dedupe = readMapping(section, "dedupe", P, problems);
  checkKnownKeys(dedupe, `${P}.dedupe`, ["max_entries", "ttl_seconds"], problems);
  const T = WEBHOOK_DEFAULTS.timeouts;
  const ms = (name: string, fallback: number) => readInteger(timeouts, name, `${P}.timeouts`, { min: 1, max: DAY_MS, fallback }, problems);

  const config: WebhookConfig = {
    enabled: readBoolean(section, "enabled", P, undefined, problems),
    host: readString(section, "host", P, WEBHOOK_DEFAULTS.host, problems),
    port: readInteger(section, "port", P, { min: 0, max: 65535, fallback: WEBHOOK_DEFAULTS.port }, problems),
    maxBodyBytes: readInteger(section, "max_body_bytes", P, { min: 1024, max: 64 * 1024 * 1024, fallback: WEBHOOK_DEFAULTS.maxBodyBytes }, problems),
    maxHeaderBytes: readInteger(section, "max_header_bytes", P, { min: 4096, max: 256 * 1024, fallback: WEBHOOK_DEFAULTS.maxHeaderBytes }, problems),
    secrets: parseSecrets(section, ctx, problems, warnings),
    timeouts: {
      headersMs: ms("headers_ms", T.headersMs),
      requestMs: ms("request_ms", T.requestMs),
      keepAliveMs: ms("keep_alive_ms", T.keepAliveMs),
      handlerMs: ms("handler_ms", T.handlerMs),
      shutdownMs: ms("shutdown_ms", T.shutdownMs),
    },
    dedupe: {
      maxEntries: readInteger(dedupe, "max_entries", `${P}.dedupe`, { min: 1, max: 10_000_000, fallback: WEBHOOK_DEFAULTS.dedupe.maxEntries }, problems),
      ttlSeconds: readInteger(dedupe, "ttl_seconds", `${P}.dedupe`, { min: 1, max: 30 * 86400, fallback: WEBHOOK_DEFAULTS.dedupe.ttlSeconds }, problems),
    },
    metrics: readBoolean(section, "metrics", P, WEBHOOK_DEFAULTS.metrics, problems),
  };
  if (config.timeouts.headersMs > config.timeouts.requestMs) {
    problems.push({ key: `${P}.timeouts.headers_ms`, message: "is longer than request_ms", fix: "make headers_ms at most request_ms" });
  }
  const target = section.shortcut_target_state_id;
  if (target !== undefined && target !== null) {
    if ((typeof target === "number" && Number.isInteger(target)) || (typeof target === "string" && /^\d+$/.test(target))) {
      config.shortcutTargetStateId = String(target);
    } else {
      problems.push({ key: `${P}.shortcut_target_state_id`, message: `must be a workflow state id (a whole number), got ${JSON.stringify(target)}`, fix: "copy the numeric id of the target workflow state" });
    }
  }
  const generic = parseGenericConfig(section.generic, ctx, problems, warnings);
  if (generic) config.generic = generic;
  if (config.secrets.tracker_b === undefined) {
    warnings.push("webhook.secrets.tracker_b is not set: the tracker route accepts unsigned requests; set it (or webhook.secrets.shortcut) in production");
  }
  if (problems.length > 0) throw new ConfigError(problems, file);
  return { config, warnings };
}

function parseSecrets(section: Mapping, ctx: SecretContext, problems: ConfigProblem[], warnings: string[]): WebhookConfig["secrets"] {
  const raw = readMapping(section, "secrets", P, problems);
  const known = Object.entries(SECRET_KEY_ALIASES).flat();
  for (const name of Object.keys(raw)) {
    if (known.includes(name)) continue;
    const fix = name === "generic" ? "put the generic secret at webhook.generic.secret" : `use one of ${known.join(", ")}`;
    problems.push({ key: `${P}.secrets.${name}`, message: "is not a known source", fix });
  }
  const out: WebhookConfig["secrets"] = {};
  for (const [source, alias] of Object.entries(SECRET_KEY_ALIASES) as Array<[SecretSourceId, string]>) {
    const neutral = resolveSecret(raw[source], `${P}.secrets.${source}`, ctx, problems);
    const vendor = resolveSecret(raw[alias], `${P}.secrets.${alias}`, ctx, problems);
    if (neutral !== undefined && vendor !== undefined && neutral !== vendor) {
      problems.push({ key: `${P}.secrets.${alias}`, message: `and ${P}.secrets.${source} name the same source with different secrets`, fix: "keep only one of the two keys" });
    }
    const value = neutral ?? vendor;
    if (value !== undefined) out[source] = value;
  }
  const legacy = readMapping(section, "shortcut", P, problems);
  checkKnownKeys(legacy, `${P}.shortcut`, ["secret"], problems);
  if (legacy.secret !== undefined) {
    const value = resolveSecret(legacy.secret, `${P}.shortcut.secret`, ctx, problems);
    warnings.push("webhook.shortcut.secret is deprecated: move it to webhook.secrets.tracker_b (or webhook.secrets.shortcut)");
    if (out.tracker_b !== undefined && value !== undefined && value !== out.tracker_b) {
      problems.push({ key: `${P}.shortcut.secret`, message: "differs from webhook.secrets.tracker_b", fix: "remove the deprecated key" });
    } else if (value !== undefined) {
      out.tracker_b = value;
    }
  }
  return out;
}
