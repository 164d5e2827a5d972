import type { CodehostATicketingConfig } from "../vendors/codehost-a/codehost-a-schema.js";
import { WEBHOOK_VENDORS, type WebhookVendor } from "../vendors/registry.js";

/** The sources the webhook server knows, by their neutral names (vendors/registry.ts lists them). */
export type SourceId = WebhookVendor["id"];

/** Every source id, in route-table order. */
export const SOURCE_IDS: readonly SourceId[] = WEBHOOK_VENDORS.map((v) => v.id);

/** Sources whose secret lives under `webhook.secrets.<source>`: those with a vendor name beside their id. */
export type SecretSourceId = Extract<WebhookVendor, { webhook: { alias: string } }>["id"];

/** Vendor names accepted beside the neutral `webhook.secrets.<source>` keys. */
export const SECRET_KEY_ALIASES = Object.fromEntries(
  WEBHOOK_VENDORS.flatMap((v) => ("alias" in v.webhook ? [[v.id, v.webhook.alias]] : [])),
) as Readonly<Record<SecretSourceId, string>>;

/** Ticket fields a generic field mapping may target. */
export const TICKET_FIELDS = [
  "id",
  "title",
  "description",
  "ticket_type",
  "repo_url",
  "external_url",
  "labels",
] as const;

/** One of {@link TICKET_FIELDS}. */
export type TicketField = (typeof TICKET_FIELDS)[number];

/** How the generic source authenticates requests. */
export type GenericAuthMode = "hmac" | "bearer" | "standard_webhooks" | "none";

/** `webhook.generic`, resolved. */
export interface GenericConfig {
  authMode: GenericAuthMode;
  /** Resolved secret; set for every mode but `none`. */
  secret?: string;
  /** Header carrying the HMAC signature (mode `hmac`). */
  signatureHeader: string;
  /** Dot path to ticket field; undefined means the flat default. */
  fieldMapping?: ReadonlyArray<readonly [path: string, field: TicketField]>;
}

/** Time limits of the server, in milliseconds. */
export interface WebhookTimeouts {
  /** Time a client has to send all request headers. */
  headersMs: number;
  /** Time a client has to send the whole request. */
  requestMs: number;
  /** Idle time after which a keep-alive connection is closed. */
  keepAliveMs: number;
  /** Time the ticket or approval handler has before the request gets 503. */
  handlerMs: number;
  /** Time in-flight requests have to finish on shutdown. */
  shutdownMs: number;
}

/** The `webhook` section of the configuration, validated and with defaults applied. */
export interface WebhookConfig {
  /** `webhook.enabled` as written; undefined when absent. */
  enabled: boolean | undefined;
  host: string;
  port: number;
  maxBodyBytes: number;
  maxHeaderBytes: number;
  secrets: Partial<Record<SecretSourceId, string>>;
  /** `webhook.shortcut_target_state_id`, as a string. */
  shortcutTargetStateId?: string;
  generic?: GenericConfig;
  timeouts: WebhookTimeouts;
  dedupe: { maxEntries: number; ttlSeconds: number };
  /** Serve Prometheus metrics at GET /metrics. */
  metrics: boolean;
  /**
   * Serve the tracker B route without a secret. Undefined (`errand webhook
   * serve`) serves it, as spec 5.3 allows; the controller sets it from
   * `webhook.tracker_b.allow_unsigned`, so no route opens by omission.
   */
  allowUnsignedTrackerB?: boolean;
  /**
   * The label rules code host A's issues must pass to become tickets (trigger
   * labels, excluded labels, the in-progress and failed labels), as the
   * poller applies them. The controller sets them from `ticketing.config`
   * when `ticketing.backend` is `codehost_a`; unset, every opened or
   * labeled issue is a ticket.
   */
  codehostARules?: Pick<CodehostATicketingConfig, "labels" | "exclude_labels" | "in_progress_label" | "failed_label">;
}

/** Defaults of every optional setting. */
export const WEBHOOK_DEFAULTS = {
  host: "0.0.0.0",
  port: 8080,
  maxBodyBytes: 1024 * 1024,
  maxHeaderBytes: 16 * 1024,
  signatureHeader: "X-Webhook-Signature",
  timeouts: { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000, handlerMs: 8_000, shutdownMs: 10_000 },
  dedupe: { maxEntries: 10_000, ttlSeconds: 24 * 60 * 60 },
  metrics: true,
} as const;
