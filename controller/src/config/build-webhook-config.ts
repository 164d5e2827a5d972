import type { PathProblem } from "./path-problem.js";
import type { WebhookSecretValues } from "./resolve-webhook-secrets.js";
import type { WebhookSection } from "./schema/webhook-schema.js";
import type { GenericConfig, TicketField, WebhookConfig } from "./webhook-config.js";

/**
 * Who reads the webhook section: `serve` (`errand webhook serve`, which keeps
 * its warning-only behaviour) or `controller` (`errand run`, which opens no
 * unauthenticated route unless the file says so in so many words).
 */
export type WebhookMode = "serve" | "controller";

/** The resolved webhook settings of the controller. */
export type ControllerWebhookConfig = WebhookConfig & { allowUnsignedTrackerB: boolean };

/** Turns the validated section and its resolved secrets into the settings the server reads. */
export function buildWebhookConfig(
  section: WebhookSection,
  values: WebhookSecretValues,
  mode: WebhookMode,
  problems: PathProblem[],
  warnings: string[],
): ControllerWebhookConfig {
  const allowUnsigned = section.tracker_b.allow_unsigned;
  const config: ControllerWebhookConfig = {
    enabled: section.enabled,
    host: section.host,
    port: section.port,
    maxBodyBytes: section.max_body_bytes,
    maxHeaderBytes: section.max_header_bytes,
    secrets: values.secrets,
    timeouts: {
      headersMs: section.timeouts.headers_ms,
      requestMs: section.timeouts.request_ms,
      keepAliveMs: section.timeouts.keep_alive_ms,
      handlerMs: section.timeouts.handler_ms,
      shutdownMs: section.timeouts.shutdown_ms,
    },
    dedupe: { maxEntries: section.dedupe.max_entries, ttlSeconds: section.dedupe.ttl_seconds },
    metrics: section.metrics,
    allowUnsignedTrackerB: allowUnsigned,
  };
  if (section.shortcut_target_state_id !== undefined)
    config.shortcutTargetStateId = String(section.shortcut_target_state_id);
  const generic =
    section.generic === undefined ? undefined : buildGeneric(section.generic, values.generic, mode, problems, warnings);
  if (generic !== undefined) config.generic = generic;

  const trackerSecret = config.secrets.tracker_b !== undefined;
  if (allowUnsigned && trackerSecret) {
    problems.push({
      path: ["webhook", "tracker_b", "allow_unsigned"],
      message: "is true although webhook.secrets.tracker_b is set, so requests are checked anyway",
      fix: "remove allow_unsigned (the secret is checked), or remove the secret",
    });
  } else if (allowUnsigned) {
    warnings.push(
      "webhook.tracker_b.allow_unsigned is true: the tracker route accepts unsigned requests; set webhook.secrets.tracker_b in production",
    );
  } else if (!trackerSecret && mode === "serve") {
    warnings.push(
      "webhook.secrets.tracker_b is not set: the tracker route accepts unsigned requests; set it (or webhook.secrets.shortcut) in production",
    );
  } else if (!trackerSecret && config.shortcutTargetStateId !== undefined) {
    problems.push({
      path: ["webhook", "shortcut_target_state_id"],
      message: "filters the tracker B route, which is not served: it has no secret",
      fix: "set webhook.secrets.tracker_b or webhook.tracker_b.allow_unsigned: true",
    });
  }
  if (mode === "controller") {
    const sources =
      Object.keys(config.secrets).length + (config.generic === undefined ? 0 : 1) + (allowUnsigned ? 1 : 0);
    if (config.enabled === undefined) config.enabled = sources > 0;
    else if (config.enabled && sources === 0)
      warnings.push(
        "webhook.enabled is true but no source is configured: every webhook route answers 404; set webhook.secrets.<source> or webhook.generic",
      );
    for (const key of values.inline) {
      warnings.push(
        `${key} is written in the file itself: anyone who can read it can forge requests; keep it in a secret and write { secret: NAME }`,
      );
    }
  }
  return config;
}

function buildGeneric(
  raw: NonNullable<WebhookSection["generic"]>,
  secret: string | undefined,
  mode: WebhookMode,
  problems: PathProblem[],
  warnings: string[],
): GenericConfig {
  const generic: GenericConfig = {
    authMode: raw.auth_mode ?? "none",
    signatureHeader: raw.signature_header.toLowerCase(),
  };
  if (secret !== undefined) generic.secret = secret;
  if (raw.field_mapping !== undefined)
    generic.fieldMapping = Object.entries(raw.field_mapping) as Array<[string, TicketField]>;
  if (raw.auth_mode === undefined && raw.secret === undefined) {
    if (mode === "controller") {
      problems.push({
        path: ["webhook", "generic", "auth_mode"],
        message: "is missing, so the generic source would accept unauthenticated requests",
        fix: "set auth_mode to hmac, bearer or standard_webhooks with a secret, or to none to accept unauthenticated requests on purpose",
      });
    } else {
      warnings.push(
        "webhook.generic has no auth_mode: the generic source accepts unauthenticated requests; set webhook.generic.auth_mode and secret in production",
      );
    }
  } else if (raw.auth_mode === "none" && raw.secret === undefined) {
    warnings.push(
      "webhook.generic has auth_mode none: the generic source accepts unauthenticated requests; set webhook.generic.auth_mode and secret in production",
    );
  }
  return generic;
}
