import type { Ticket } from "@errand/channel-sdk";
import { StoreError } from "../errors.js";
import { recordedJsonText } from "../json-text.js";
import type { DeliveryTickets } from "./store.js";

/** Refuses a value that is not a non-empty string; `what` names it in the message. */
export function requireText(value: unknown, what: string): string {
  if (typeof value === "string" && value.length > 0) return value;
  throw new StoreError(`${what} must be a non-empty string, got ${JSON.stringify(value) ?? String(value)}`, {
    hint: "this is a bug in the caller of the store",
  });
}

/** Refuses a duration that is not a positive whole number of milliseconds. */
export function requireMs(value: unknown, what: string): number {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return value;
  throw new StoreError(`${what} must be a positive whole number of milliseconds, got ${String(value)}`, {
    hint: "this is a bug in the caller of the store",
  });
}

/**
 * Checks the identity of every ticket of a batch and returns each one's
 * JSON, before any write: one bad ticket refuses the batch untouched.
 */
export function serializeTickets(tickets: readonly Ticket[], batch = "the batch"): string[] {
  return tickets.map((ticket, index) => {
    requireText(ticket?.source, `ticket ${index} of ${batch}: source`);
    requireText(ticket.id, `ticket ${index} of ${batch} (${ticket.source}): id`);
    try {
      return ticketJson(ticket);
    } catch (error) {
      throw new StoreError(
        `ticket ${index} of ${batch} (${ticket.source} ${ticket.id}) cannot be stored as JSON: ${(error as Error).message}`,
        {
          cause: error,
          hint: "a ticket's rawEvent must be plain JSON data (no cycles, no BigInt)",
        },
      );
    }
  });
}

/** The ticket as JSON; a `rawEvent` parsed from a webhook body is written as that body's text, not serialised again. */
function ticketJson(ticket: Ticket): string {
  const raw = ticket.rawEvent === undefined ? undefined : recordedJsonText(ticket.rawEvent);
  if (raw === undefined) return JSON.stringify(ticket);
  // Never empty: source and id were checked. The raw event comes last; readers parse the text, key order is not kept.
  const rest = JSON.stringify({ ...ticket, rawEvent: undefined });
  return `${rest.slice(0, -1)},"rawEvent":${raw}}`;
}

/** Refuses a count that is not a whole number of 0 or more. */
export function requireCount(value: unknown, what: string): number {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  throw new StoreError(`${what} must be a whole number of 0 or more, got ${String(value)}`, {
    hint: "this is a bug in the caller of the store",
  });
}

/** Refuses a time that is not milliseconds since the epoch. */
export function requireTime(value: unknown, what: string): number {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  throw new StoreError(`${what} must be milliseconds since the epoch, got ${String(value)}`, {
    hint: "this is a bug in the caller of the store",
  });
}

/**
 * Checks every delivery of a batch (Store.acceptDeliveries): its id and TTL,
 * and its tickets as {@link serializeTickets} does, before any write.
 * Returns each delivery's ticket JSON.
 */
export function serializeDeliveries(deliveries: readonly DeliveryTickets[]): string[][] {
  return deliveries.map((d, index) => {
    const where = `delivery ${index} of the batch`;
    if (!Array.isArray(d?.tickets)) {
      throw new StoreError(`${where} must be { tickets, delivery? } with a tickets array`, {
        hint: "this is a bug in the caller of the store",
      });
    }
    if (d.delivery !== undefined) {
      requireText(d.delivery?.key, `${where}: delivery key`);
      requireMs(d.delivery.ttlMs, `${where} (${d.delivery.key}): TTL`);
    }
    return serializeTickets(d.tickets, where);
  });
}
