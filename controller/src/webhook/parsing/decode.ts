import type { Ticket } from "@errand/channel-sdk";
import { rememberJsonText } from "../../json-text.js";
import { badRequest, WebhookErrorCode } from "../errors.js";
import { MAX_JSON_DEPTH, tooDeepAt } from "./json-depth.js";

/** A JSON object, as sent by every source. */
export type JsonObject = Record<string, unknown>;

/** True for a JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses a JSON body that must be an object; 400 otherwise, and 400 before
 * any parse when it nests deeper than {@link MAX_JSON_DEPTH}. The text is
 * kept with the object (json-text.ts) for the store.
 */
export function parseJsonObject(body: Buffer | string, what = "body"): JsonObject {
  const deep = tooDeepAt(body);
  if (deep !== -1) {
    throw badRequest(
      `${what} nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels (at ${typeof body === "string" ? "character" : "byte"} ${deep}); send a flatter JSON document`,
    );
  }
  const text = typeof body === "string" ? body : body.toString("utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(`${what} is not valid JSON`);
  }
  if (!isObject(value)) throw badRequest(`${what} must be a JSON object`);
  return rememberJsonText(value, text);
}

/** Parses an `application/x-www-form-urlencoded` body. */
export function parseForm(body: Buffer): URLSearchParams {
  return new URLSearchParams(body.toString("utf8"));
}

/** A string field: strings as is, numbers as text, anything else empty. */
export function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return "";
}

/**
 * An identifier: a non-empty string, or a whole number JSON carries exactly,
 * as text; 400 otherwise. Beyond 2^53 - 1 a JSON number has already lost
 * digits when it is parsed, and a wrong id is worse than a refused one.
 */
export function requireId(value: unknown, path: string): string {
  if (typeof value === "number") {
    if (Number.isSafeInteger(value)) return String(value);
    const why = Number.isInteger(value)
      ? "too large to be carried exactly as a JSON number (over 2^53 - 1)"
      : "not a whole number";
    throw badRequest(`${path} is ${why}; send the id as a JSON string`);
  }
  if (typeof value === "string" && value.trim() !== "") return value;
  throw badRequest(`${path} is missing or not an identifier`, WebhookErrorCode.MissingField);
}

/** Names of a label list: strings, or objects with `name` (or `title`). */
export function labelNames(value: unknown): string[] {
  if (typeof value === "string") return value === "" ? [] : [value];
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value) {
    const name = typeof item === "string" ? item : isObject(item) ? text(item.name) || text(item.title) : "";
    if (name !== "") out.push(name);
  }
  return out;
}

/** A ticket with every field present; unspecified strings are empty. */
export function makeTicket(fields: Partial<Ticket> & Pick<Ticket, "id" | "source">): Ticket {
  return {
    id: fields.id,
    title: fields.title ?? "",
    description: fields.description ?? "",
    ticketType: fields.ticketType ?? "",
    repoUrl: fields.repoUrl ?? "",
    externalUrl: fields.externalUrl ?? "",
    labels: fields.labels ?? [],
    source: fields.source,
    rawEvent: fields.rawEvent,
  };
}
