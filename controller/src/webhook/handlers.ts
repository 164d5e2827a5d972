import type { Ticket } from "@errand/channel-sdk";
import type { SourceId } from "../config/webhook-config.js";
import type { ApprovalCallback } from "./sources/source.js";

/** What a handler learns about the delivery besides its tickets. */
export interface DeliveryContext {
  source: SourceId;
  /** The sender's delivery id, when it sent one. */
  deliveryId: string | undefined;
  /** Aborted when the server stops waiting (webhook.timeouts.handler_ms). */
  signal: AbortSignal;
}

/**
 * Receives the tickets of one delivery. The server answers 200 only after
 * the returned promise resolved; a rejection (or a timeout) answers 503 so
 * the sender retries. Make it resolve once the tickets are stored durably.
 */
export type TicketHandler = (tickets: Ticket[], ctx: DeliveryContext) => void | Promise<void>;

/** Receives chat A approval callbacks; same contract as {@link TicketHandler}. */
export type ApprovalHandler = (approvals: ApprovalCallback[], ctx: DeliveryContext) => void | Promise<void>;
