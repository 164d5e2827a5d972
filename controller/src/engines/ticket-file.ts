import type { Ticket } from "@errand/channel-sdk";
import { toSpecTicket } from "../runs/spec-ticket.js";

/**
 * The text of `$ERRAND_TICKET_FILE`: the ticket as JSON with the spec's
 * snake_case field names, `raw_event` included when the source had one.
 * Backends write it with this function so every engine reads the same shape.
 */
export function ticketFileText(ticket: Ticket): string {
  return `${JSON.stringify(toSpecTicket(ticket, true), null, 2)}\n`;
}
