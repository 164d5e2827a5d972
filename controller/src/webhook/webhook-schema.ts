import * as z from "zod";
import { say } from "../config/problem-codec.js";
import type { WebhookSecretValues } from "../config/resolve-webhook-secrets.js";
import {
  errorFor,
  flag,
  optionalSection,
  resolved,
  section,
  show,
  text,
  whole,
  withDefaults,
} from "../config/schema/kit.js";
import { secretRef } from "../config/schema/secret-ref-schema.js";
import { SECRET_KEY_ALIASES, type SecretSourceId, WEBHOOK_DEFAULTS } from "../config/webhook-config.js";
import type { CodehostATicketingConfig } from "../vendors/codehost-a/codehost-a-schema.js";
import type { CodehostATriggers } from "../vendors/codehost-a/codehost-a-triggers-schema.js";
import { genericConfig, genericSchema } from "../vendors/generic/generic-schema.js";
import { VENDORS } from "../vendors/registry.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const T = WEBHOOK_DEFAULTS.timeouts;
const SOURCE_NAMES = new Map<string, string>(VENDORS.map((v) => [v.id, v.name]));

function secretsShape() {
  const shape: Record<string, ReturnType<typeof secretRef>> = {};
  for (const [source, alias] of Object.entries(SECRET_KEY_ALIASES) as Array<[SecretSourceId, string]>) {
    shape[source] = secretRef(
      `Signing secret of ${SOURCE_NAMES.get(source)}; its route is served only when set${source === "tracker_b" ? " (or with tracker_b.allow_unsigned)" : ""}.`,
    );
    shape[alias] = secretRef(`Vendor name of \`${source}\` (give one of the two).`);
  }
  return z.object(shape).partial().shape;
}

const secrets = section(secretsShape(), {
  unknown: (name, known) => ({
    message: "is not a known source",
    fix: name === "generic" ? "put the generic secret at webhook.generic.secret" : `use one of ${known.join(", ")}`,
  }),
  fix: "write secrets: with one key per source below it",
}).meta({
  description:
    "Per-source signing secrets (docs/webhook-setup.md). Each is inline, `{ secret: NAME }`, `{ env: NAME }` or `{ file: PATH }`.",
});

const ms = (fallback: number, description: string) =>
  whole(1, DAY_MS, fallback).default(fallback).meta({ description });

const timeouts = section({
  headers_ms: ms(T.headersMs, "Time a client has to send all request headers."),
  request_ms: ms(T.requestMs, "Time a client has to send the whole request."),
  keep_alive_ms: ms(T.keepAliveMs, "Idle time after which a keep-alive connection is closed."),
  handler_ms: ms(T.handlerMs, "Time the ticket handler has before the request gets 503."),
  shutdown_ms: ms(T.shutdownMs, "Time in-flight requests have to finish on shutdown."),
}).superRefine((t, ctx) => {
  if (t.headers_ms > t.request_ms)
    ctx.addIssue({
      code: "custom",
      path: ["headers_ms"],
      input: t.headers_ms,
      message: say("is longer than request_ms", "make headers_ms at most request_ms"),
    });
});

const stateIdError = errorFor(
  (input) => `must be a workflow state id (a whole number), got ${show(input)}`,
  "copy the numeric id of the target workflow state",
);
const stateId = z
  .union(
    [
      z.number({ error: stateIdError }).int({ error: stateIdError }).nonnegative({ error: stateIdError }),
      z.string({ error: stateIdError }).regex(/^\d+$/, { error: stateIdError }),
    ],
    {
      error: stateIdError,
    },
  )
  .meta({ description: "Tracker B: forward only story updates that move to this workflow state id." });

/** The `webhook` section: the inbound webhook server. */
export const webhookSchema = section({
  enabled: flag()
    .meta({
      description:
        "Turns the webhook server on. Unset: on when at least one source is configured (a secret, `generic`, or `tracker_b.allow_unsigned`).",
    })
    .optional(),
  host: text().default(WEBHOOK_DEFAULTS.host).meta({ description: "Address the webhook server binds." }),
  port: whole(0, 65535, WEBHOOK_DEFAULTS.port)
    .default(WEBHOOK_DEFAULTS.port)
    .meta({ description: "TCP port of the webhook server (0 picks a free one)." }),
  path_prefix: z
    .literal("/webhooks", { error: errorFor(() => "is fixed at /webhooks", "remove the key or set it to /webhooks") })
    .default("/webhooks")
    .meta({ description: "Base path of all routes; fixed." }),
  secrets: optionalSection(secrets),
  shortcut_target_state_id: stateId.optional(),
  tracker_b: withDefaults(
    section({
      allow_unsigned: flag().default(false).meta({
        description:
          "Serve the tracker B route without a signing secret. The controller serves it unsigned only when this is true.",
      }),
    }),
  ).meta({ description: "Tracker B route settings." }),
  generic: optionalSection(genericSchema),
  max_body_bytes: whole(1024, 64 * 1024 * 1024, WEBHOOK_DEFAULTS.maxBodyBytes)
    .default(WEBHOOK_DEFAULTS.maxBodyBytes)
    .meta({ description: "Largest request body accepted, in bytes (413 beyond)." }),
  max_header_bytes: whole(4096, 256 * 1024, WEBHOOK_DEFAULTS.maxHeaderBytes)
    .default(WEBHOOK_DEFAULTS.maxHeaderBytes)
    .meta({ description: "Largest request head accepted, in bytes (431 beyond)." }),
  timeouts: withDefaults(timeouts).meta({ description: "Time limits of the webhook server, in milliseconds." }),
  dedupe: withDefaults(
    section({
      max_entries: whole(1, 10_000_000, WEBHOOK_DEFAULTS.dedupe.maxEntries)
        .default(WEBHOOK_DEFAULTS.dedupe.maxEntries)
        .meta({
          description: "Delivery ids remembered by `errand webhook serve` (the controller keeps them in its store).",
        }),
      ttl_seconds: whole(1, 30 * 86400, WEBHOOK_DEFAULTS.dedupe.ttlSeconds)
        .default(WEBHOOK_DEFAULTS.dedupe.ttlSeconds)
        .meta({ description: "How long a delivery id is remembered, in seconds." }),
    }),
  ).meta({ description: "Redelivery detection by delivery id." }),
  metrics: flag()
    .default(WEBHOOK_DEFAULTS.metrics)
    .meta({ description: "Serve Prometheus metrics at GET /metrics on the webhook port." }),
  shortcut: optionalSection(
    section({ secret: secretRef("Deprecated: use webhook.secrets.tracker_b.").optional() }),
  ).meta({
    description: "Deprecated spelling of the tracker B secret (`webhook.shortcut.secret`).",
  }),
}).meta({ description: "The inbound webhook server (docs/webhooks.md)." });

/** The `webhook` section as validated (secrets still as written). */
export type WebhookSection = z.output<typeof webhookSchema>;

/**
 * Who reads the webhook section: `serve` (`errand webhook serve`, which keeps
 * its warning-only behaviour) or `controller` (`errand run`, which opens no
 * unauthenticated route unless the file says so in so many words).
 */
export type WebhookMode = "serve" | "controller";

/** The label rules code host A's issues must pass to become tickets, as the poller applies them. */
export type CodehostARules = Pick<
  CodehostATicketingConfig,
  "labels" | "exclude_labels" | "in_progress_label" | "failed_label"
>;

/**
 * `webhook`, resolved: the settings the server reads. The signing secrets are resolved beforehand
 * (resolveWebhookSecrets), because a missing variable or file is reported with every other problem of the file.
 * `codehostARules` comes from `ticketing.config` when `ticketing.backend` is `codehost_a`: unset, every opened or
 * labeled issue is a ticket. `codehostATriggers` comes from `repositories.codehost_a`: set, only its trigger rules
 * start runs from code host A's events.
 */
export const webhookConfig = (
  values: WebhookSecretValues,
  mode: WebhookMode,
  codehostARules?: CodehostARules,
  codehostATriggers?: CodehostATriggers,
) =>
  webhookSchema.transform((s) => {
    const generic = s.generic && resolved(genericConfig(values.generic), s.generic);
    const allowUnsigned = s.tracker_b.allow_unsigned;
    const sources = Object.keys(values.secrets).length + (generic === undefined ? 0 : 1) + (allowUnsigned ? 1 : 0);
    return {
      // The controller serves when a source is configured and the file does not say otherwise; serve keeps it as written.
      enabled: mode === "controller" ? (s.enabled ?? sources > 0) : s.enabled,
      host: s.host,
      port: s.port,
      maxBodyBytes: s.max_body_bytes,
      maxHeaderBytes: s.max_header_bytes,
      secrets: values.secrets,
      timeouts: {
        headersMs: s.timeouts.headers_ms,
        requestMs: s.timeouts.request_ms,
        keepAliveMs: s.timeouts.keep_alive_ms,
        handlerMs: s.timeouts.handler_ms,
        shutdownMs: s.timeouts.shutdown_ms,
      },
      dedupe: { maxEntries: s.dedupe.max_entries, ttlSeconds: s.dedupe.ttl_seconds },
      metrics: s.metrics,
      // The controller serves the tracker B route unsigned only when the file says so.
      allowUnsignedTrackerB: allowUnsigned,
      ...(s.shortcut_target_state_id === undefined
        ? {}
        : { shortcutTargetStateId: String(s.shortcut_target_state_id) }),
      ...(generic === undefined ? {} : { generic }),
      ...(codehostARules === undefined ? {} : { codehostARules }),
      ...(codehostATriggers === undefined ? {} : { codehostATriggers }),
    };
  });

/** `webhook`, resolved as the controller reads it (see {@link webhookConfig}). */
export type ControllerWebhookConfig = z.output<ReturnType<typeof webhookConfig>>;

/**
 * The `webhook` section, resolved: what the webhook server reads. `errand webhook serve` leaves
 * `allowUnsignedTrackerB` out, and serves the tracker B route without a secret.
 */
export type WebhookConfig = Omit<ControllerWebhookConfig, "allowUnsignedTrackerB"> & {
  allowUnsignedTrackerB?: boolean;
};

/** Time limits of the webhook server, in milliseconds. */
export type WebhookTimeouts = WebhookConfig["timeouts"];
