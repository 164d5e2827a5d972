import type { ConfigProblem } from "./config-error.js";
import { checkKnownKeys, isMapping, type Mapping, readString } from "./fields.js";
import { resolveSecret, type SecretContext } from "./secret-ref.js";
import { type GenericAuthMode, type GenericConfig, TICKET_FIELDS, type TicketField, WEBHOOK_DEFAULTS } from "./webhook-config.js";

const PREFIX = "webhook.generic";
const MODES: readonly GenericAuthMode[] = ["hmac", "bearer", "standard_webhooks", "none"];
const PATH = /^[A-Za-z0-9_$-]+(\[\d+\])*(\.([A-Za-z0-9_$-]+|\d+)(\[\d+\])*)*$/;

/** Validates `webhook.generic`. `warnings` receives what is allowed but unwise. */
export function parseGenericConfig(
  raw: unknown,
  ctx: SecretContext,
  problems: ConfigProblem[],
  warnings: string[],
): GenericConfig | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isMapping(raw)) {
    problems.push({ key: PREFIX, message: "must be a mapping", fix: "write generic: with auth_mode, secret and field_mapping below it" });
    return undefined;
  }
  checkKnownKeys(raw, PREFIX, ["auth_mode", "secret", "signature_header", "field_mapping"], problems);
  const modeRaw = readString(raw, "auth_mode", PREFIX, undefined, problems);
  const secret = resolveSecret(raw.secret, `${PREFIX}.secret`, ctx, problems);
  let authMode: GenericAuthMode = "none";
  if (modeRaw !== undefined && !MODES.includes(modeRaw as GenericAuthMode)) {
    problems.push({ key: `${PREFIX}.auth_mode`, message: `is ${JSON.stringify(modeRaw)}`, fix: `use one of ${MODES.join(", ")}` });
  } else if (modeRaw !== undefined) {
    authMode = modeRaw as GenericAuthMode;
  }
  if (authMode !== "none" && secret === undefined && raw.secret === undefined) {
    problems.push({ key: `${PREFIX}.secret`, message: `is required when auth_mode is ${authMode}`, fix: "set webhook.generic.secret (a value, { env: NAME } or { file: PATH })" });
  }
  if (modeRaw === undefined && raw.secret !== undefined) {
    problems.push({ key: `${PREFIX}.auth_mode`, message: "is missing although a secret is set", fix: "set auth_mode to hmac, bearer or standard_webhooks" });
  }
  if (authMode === "standard_webhooks" && secret !== undefined) checkWhsec(secret, problems);
  if (authMode === "none" && modeRaw !== undefined && raw.secret !== undefined) {
    problems.push({
      key: `${PREFIX}.secret`,
      message: "is set but auth_mode is none, so it would never be checked",
      fix: "set auth_mode to hmac, bearer or standard_webhooks, or remove the secret",
    });
  }
  if (authMode === "none" && raw.secret === undefined) {
    const why = modeRaw === undefined ? "has no auth_mode" : "has auth_mode none";
    warnings.push(`webhook.generic ${why}: the generic source accepts unauthenticated requests; set webhook.generic.auth_mode and secret in production`);
  }
  const signatureHeader = readString(raw, "signature_header", PREFIX, WEBHOOK_DEFAULTS.signatureHeader, problems);
  if (!/^[A-Za-z0-9-]+$/.test(signatureHeader)) {
    problems.push({ key: `${PREFIX}.signature_header`, message: `${JSON.stringify(signatureHeader)} is not a valid header name`, fix: "use letters, digits and dashes, e.g. X-Webhook-Signature" });
  }
  const config: GenericConfig = { authMode, signatureHeader: signatureHeader.toLowerCase() };
  if (secret !== undefined) config.secret = secret;
  const mapping = parseFieldMapping(raw.field_mapping, problems);
  if (mapping) config.fieldMapping = mapping;
  return config;
}

function checkWhsec(secret: string, problems: ConfigProblem[]): void {
  const body = secret.startsWith("whsec_") ? secret.slice(6) : undefined;
  if (body === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(body) || Buffer.from(body, "base64").length < 16) {
    problems.push({
      key: `${PREFIX}.secret`,
      message: "is not a Standard Webhooks secret",
      fix: "use the whsec_<base64> value the sender shows (at least 16 bytes once decoded)",
    });
  }
}

function parseFieldMapping(raw: unknown, problems: ConfigProblem[]): Array<readonly [string, TicketField]> | undefined {
  if (raw === undefined || raw === null) return undefined;
  const key = `${PREFIX}.field_mapping`;
  if (!isMapping(raw)) {
    problems.push({ key, message: "must map dot paths to ticket fields", fix: 'write e.g. field_mapping: { "data.id": id, "data.name": title }' });
    return undefined;
  }
  const out: Array<readonly [string, TicketField]> = [];
  const seen = new Map<string, string>();
  for (const [path, target] of Object.entries(raw as Mapping)) {
    if (!PATH.test(path)) {
      problems.push({ key: `${key}.${path}`, message: "is not a dot path", fix: "write paths like issue.id, items.0.name or items[0].name" });
    } else if (typeof target !== "string" || !TICKET_FIELDS.includes(target as TicketField)) {
      problems.push({ key: `${key}.${path}`, message: `maps to ${JSON.stringify(target)}`, fix: `map to one of ${TICKET_FIELDS.join(", ")}` });
    } else if (seen.has(target)) {
      problems.push({ key: `${key}.${path}`, message: `maps to ${target}, which ${seen.get(target)} already fills`, fix: "map each ticket field from one path only" });
    } else {
      seen.set(target, path);
      out.push([path, target as TicketField]);
    }
  }
  if (!seen.has("id")) {
    problems.push({ key, message: "maps no path to id", fix: "add the path of the event's identifier, e.g. \"data.id\": id" });
  }
  return out;
}
