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

/** One of `TICKET_FIELDS`. */
export type TicketField = (typeof TICKET_FIELDS)[number];

/** How the generic source authenticates requests. */
export type GenericAuthMode = "hmac" | "bearer" | "standard_webhooks" | "none";

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
