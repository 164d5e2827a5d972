import type { Ticket } from "../channel.js";
import { truncate } from "./truncate.js";

/** A link to a ticket: where it points and what to show. */
export interface TicketLink {
  /** `externalUrl`, else `repoUrl`, else undefined (show the label as plain text). */
  url: string | undefined;
  /** `#123 Title` for a numeric id, `PROJ-7 Title` otherwise; the title alone without id. */
  label: string;
}

/** Options of {@link ticketLink}. */
export interface TicketLinkOptions {
  /** Longest label, in code units (cut between graphemes, with "…"). Default 150. */
  maxLabelLength?: number;
}

/**
 * The link and label that point a reader at a ticket. Platform syntax
 * (`<url|label>`, `[label](url)`) and escaping belong to the channel.
 *
 * @example
 * ticketLink({ id: "123", title: "Fix login", externalUrl: "https://tracker/123", ... });
 * // { url: "https://tracker/123", label: "#123 Fix login" }
 */
export function ticketLink(
  ticket: Pick<Ticket, "id" | "title"> & Partial<Pick<Ticket, "externalUrl" | "repoUrl">>,
  options: TicketLinkOptions = {},
): TicketLink {
  const url = ticket.externalUrl || ticket.repoUrl || undefined;
  const id = ticket.id?.trim() ?? "";
  const title = (ticket.title ?? "").replace(/\s+/g, " ").trim();
  const prefix = id === "" ? "" : /^\d+$/.test(id) ? `#${id}` : id;
  const label = [prefix, title].filter((part) => part !== "").join(" ") || "(untitled ticket)";
  return { url, label: truncate(label, options.maxLabelLength ?? 150) };
}
