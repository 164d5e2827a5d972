import type { Ticket } from "@errand/channel-sdk";

/** A ticket with the spec's (and the protobuf's) snake_case field names. */
export interface SpecTicket {
  id: string;
  title: string;
  description: string;
  ticket_type: string;
  repo_url: string;
  external_url: string;
  labels: string[];
  source: string;
  raw_event?: Record<string, unknown>;
}

/** Converts a {@link Ticket} to the spec's field names; `raw_event` only when asked for. */
export function toSpecTicket(ticket: Ticket, includeRawEvent = false): SpecTicket {
  const out: SpecTicket = {
    id: ticket.id,
    title: ticket.title,
    description: ticket.description,
    ticket_type: ticket.ticketType,
    repo_url: ticket.repoUrl,
    external_url: ticket.externalUrl,
    labels: ticket.labels,
    source: ticket.source,
  };
  if (includeRawEvent && ticket.rawEvent !== undefined) out.raw_event = ticket.rawEvent;
  return out;
}
