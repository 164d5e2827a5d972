import type { TaskResult, Ticket, TokenUsage } from "../channel.js";
import { argumentError, describeValue } from "./argument-error.js";
import { checkJsonObject } from "./json-value.js";
import type { NotificationCall } from "./notification-call.js";

const TICKET_STRINGS = ["id", "title", "description", "ticketType", "repoUrl", "externalUrl", "source"] as const;
const RESULT_STRINGS = ["summary", "pullRequestUrl", "failureReason"] as const;
const TOKEN_COUNTS = ["inputTokens", "outputTokens", "cachedInputTokens"] as const;

type Bad = (path: string, what: string, hint: string) => Error;

/**
 * Validates a notification the same way wherever it is dispatched or sent
 * (in-process, by the remote host before sending, and by the plugin), and
 * returns it with unset fields filled as proto3 decodes them: `undefined` or
 * `null` strings become `""`, labels `[]`, `success` false, token counts 0.
 * Values the wire cannot carry unchanged are refused with an
 * InvalidArgumentError naming the field: a missing or non-object ticket or
 * result, a wrongly typed field (a numeric ticket id, labels that are not a
 * list of strings), an int64 count that is negative, fractional or beyond
 * Number.MAX_SAFE_INTEGER, a `rawEvent` that is not plain JSON data.
 * Returns `call` itself when nothing needed filling.
 */
export function checkNotificationCall(call: NotificationCall, label: string): NotificationCall {
  const bad: Bad = (path, what, hint) => argumentError(label, path, what, hint);
  const ticket = checkTicket(call.ticket, bad, label);
  switch (call.kind) {
    case "notify": {
      const message = checkString(call.message, "message", bad);
      return ticket === call.ticket && message === call.message ? call : { ...call, ticket, message };
    }
    case "notifyComplete": {
      const result = checkResult(call.result, bad);
      return ticket === call.ticket && result === call.result ? call : { ...call, ticket, result };
    }
    default:
      return ticket === call.ticket ? call : { ...call, ticket };
  }
}

function checkString(value: unknown, path: string, bad: Bad): string {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string")
    throw bad(
      path,
      `must be a string, got ${describeValue(value)}`,
      `pass ${path} as a string${path === "ticket.id" ? ", also for numeric ids: String(id)" : ""}`,
    );
  return value;
}

function checkObject(value: unknown, path: string, bad: Bad, hint: string): Record<string, unknown> {
  if (value === undefined || value === null) throw bad(path, "is missing", hint);
  if (typeof value !== "object" || Array.isArray(value))
    throw bad(path, `must be an object, got ${describeValue(value)}`, hint);
  return value as Record<string, unknown>;
}

function checkTicket(value: unknown, bad: Bad, label: string): Ticket {
  const ticket = checkObject(value, "ticket", bad, "pass a Ticket object ({ id, title, labels, … })");
  const filled: Record<string, unknown> = {};
  for (const field of TICKET_STRINGS) {
    const text = checkString(ticket[field], `ticket.${field}`, bad);
    if (text !== ticket[field]) filled[field] = text;
  }
  const labels = ticket.labels;
  if (labels === undefined || labels === null) filled.labels = [];
  else if (!Array.isArray(labels))
    throw bad(
      "ticket.labels",
      `must be an array of strings, got ${describeValue(labels)}`,
      'pass label names as a list, for example ["bug"]',
    );
  else {
    labels.forEach((item: unknown, i) => {
      if (typeof item !== "string")
        throw bad(`ticket.labels[${i}]`, `must be a string, got ${describeValue(item)}`, "pass label names as strings");
    });
  }
  if (ticket.rawEvent === null) filled.rawEvent = undefined;
  else if (ticket.rawEvent !== undefined) checkJsonObject(ticket.rawEvent, "ticket.rawEvent", label);
  return (Object.keys(filled).length === 0 ? ticket : { ...ticket, ...filled }) as unknown as Ticket;
}

function checkCount(value: unknown, path: string, bad: Bad): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw bad(
      path,
      `must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, got ${describeValue(value)}`,
      `leave ${path.split(".").pop()} out when it is unknown`,
    );
  }
  return value;
}

function checkResult(value: unknown, bad: Bad): TaskResult {
  const result = checkObject(value, "result", bad, "pass a TaskResult object ({ success, summary, … })");
  const filled: Record<string, unknown> = {};
  if (result.success === undefined || result.success === null) filled.success = false;
  else if (typeof result.success !== "boolean")
    throw bad(
      "result.success",
      `must be true or false, got ${describeValue(result.success)}`,
      "pass success as a boolean",
    );
  for (const field of RESULT_STRINGS) {
    const text = checkString(result[field], `result.${field}`, bad);
    if (text !== result[field]) filled[field] = text;
  }
  const cost = result.costUsd;
  if (cost === null) filled.costUsd = undefined;
  else if (cost !== undefined && (typeof cost !== "number" || !Number.isFinite(cost))) {
    throw bad(
      "result.costUsd",
      `must be a finite number, got ${describeValue(cost)}`,
      "leave costUsd out when the cost is unknown",
    );
  }
  if (checkCount(result.durationMs, "result.durationMs", bad) === undefined && result.durationMs === null)
    filled.durationMs = undefined;
  const usage = result.tokenUsage;
  if (usage === null) filled.tokenUsage = undefined;
  else if (usage !== undefined) {
    const counts = checkObject(
      usage,
      "result.tokenUsage",
      bad,
      "pass { inputTokens, outputTokens, cachedInputTokens }, or leave tokenUsage out",
    );
    const fixed: Partial<TokenUsage> = {};
    for (const field of TOKEN_COUNTS) {
      if (checkCount(counts[field], `result.tokenUsage.${field}`, bad) === undefined) fixed[field] = 0;
    }
    if (Object.keys(fixed).length > 0) filled.tokenUsage = { ...counts, ...fixed };
  }
  return (Object.keys(filled).length === 0 ? result : { ...result, ...filled }) as unknown as TaskResult;
}
