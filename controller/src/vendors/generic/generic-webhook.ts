import type { Ticket } from "@errand/channel-sdk";
import type { TicketField } from "../../config/webhook-config.js";
import { TICKET_FIELDS } from "../../config/webhook-config.js";
import { type Authenticator, openAuthenticator } from "../../webhook/auth/authenticator.js";
import { createHmacAuthenticator } from "../../webhook/auth/hmac.js";
import { createStandardWebhooksAuthenticator } from "../../webhook/auth/standard-webhooks.js";
import { createBearerAuthenticator } from "../../webhook/auth/token.js";
import { badRequest, WebhookErrorCode } from "../../webhook/errors.js";
import { type JsonObject, labelNames, makeTicket, parseJsonObject, requireId } from "../../webhook/parsing/decode.js";
import { accepted, type WebhookSource } from "../../webhook/parsing/source.js";
import { compileFieldPath, type FieldPath, readFieldPath } from "./field-path.js";
import type { GenericConfig } from "./generic-schema.js";

/** Where a field's value comes from: its configured path, or the same-named top-level key. */
type Plan = ReadonlyArray<readonly [field: TicketField, path: FieldPath, shown: string]>;

/**
 * The generic source: a JSON object mapped to one ticket by
 * `webhook.generic.field_mapping`, or, without a mapping, read flat from the
 * top-level keys named like the ticket fields. A request without an id is 400.
 */
export function createGenericSource(config: GenericConfig): WebhookSource {
  const plan: Plan = config.fieldMapping
    ? config.fieldMapping.map(([path, field]) => [field, compileFieldPath(path), path] as const)
    : TICKET_FIELDS.map((field) => [field, [field], field] as const);
  return {
    id: "generic",
    auth: authenticator(config),
    mediaTypes: ["application/json"],
    deliveryHeaders: ["webhook-id", "idempotency-key"],
    map(body) {
      const payload = parseJsonObject(body);
      return accepted([toTicket(payload, plan)]);
    },
  };
}

function toTicket(payload: JsonObject, plan: Plan): Ticket {
  const fields: Partial<Record<TicketField, unknown>> = {};
  const where: Partial<Record<TicketField, string>> = {};
  for (const [field, path, shown] of plan) {
    fields[field] = readFieldPath(payload, path);
    where[field] = shown;
  }
  if (fields.id === undefined || fields.id === null || fields.id === "") {
    throw badRequest(`no id: the body has nothing at ${where.id ?? "id"}`, WebhookErrorCode.MissingField);
  }
  return makeTicket({
    id: requireId(fields.id, where.id ?? "id"),
    title: scalar(fields.title, where.title),
    description: scalar(fields.description, where.description),
    ticketType: scalar(fields.ticket_type, where.ticket_type),
    repoUrl: scalar(fields.repo_url, where.repo_url),
    externalUrl: scalar(fields.external_url, where.external_url),
    labels: labelNames(fields.labels),
    source: "generic",
    rawEvent: payload,
  });
}

function scalar(value: unknown, path: string | undefined): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return String(value);
  throw badRequest(`${path ?? "a mapped field"} must be a string or a number`, WebhookErrorCode.MissingField);
}

function authenticator(config: GenericConfig): Authenticator {
  const secret = config.secret ?? "";
  switch (config.authMode) {
    case "hmac":
      return createHmacAuthenticator({ secret, headers: [config.signatureHeader], prefix: "optional" });
    case "bearer":
      return createBearerAuthenticator(secret);
    case "standard_webhooks":
      return createStandardWebhooksAuthenticator(secret);
    case "none":
      return openAuthenticator;
  }
}
