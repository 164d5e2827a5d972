import type { Ticket } from "@errand/channel-sdk";
import type { SourceId } from "../config/webhook-config.js";
import type { ReviewEvent } from "./parsing/review-event.js";
import type { ApprovalCallback } from "./parsing/source.js";
import type { WebhookReply } from "./responses.js";

/** What a handler learns about the delivery besides its tickets. */
export interface DeliveryContext {
  source: SourceId;
  /** The sender's delivery id, when it sent one. */
  deliveryId: string | undefined;
  /**
   * The key of this delivery id (`source:deliveryId`), when it has one: the
   * key it is claimed under in the DedupeStore, or, with
   * `dedupeWithTickets`, the one the ticket handler checks. What a handler
   * that stores the tickets in the dedupe store's database marks handled
   * with them.
   */
  deliveryKey: string | undefined;
  /** Aborted when the server stops waiting (webhook.timeouts.handler_ms). */
  signal: AbortSignal;
}

/**
 * What a {@link TicketHandler} may resolve with. `deliveryCommitted: true`
 * says the handler marked `ctx.deliveryKey` handled in the DedupeStore's
 * database itself, in the transaction that stored the tickets: the server
 * then does not call the store's `commit` for that delivery (a second
 * write that a crash could separate from the tickets). Resolving with
 * nothing (or `false`) leaves the commit to the server.
 *
 * `seen` is for a server created with `dedupeWithTickets`, whose handler
 * checks the delivery id itself: the id was handled already
 * (`duplicate`) or is being handled (`in_flight`), nothing was stored,
 * and the server answers as a claim that found it would.
 */
export interface TicketHandlerResult {
  deliveryCommitted: boolean;
  seen?: "duplicate" | "in_flight";
}

/**
 * Receives the tickets of one delivery. The server answers 200 only after
 * the returned promise resolved; a rejection (or a timeout) answers 503 so
 * the sender retries. Make it resolve once the tickets are stored durably.
 */
export type TicketHandler = (
  tickets: Ticket[],
  ctx: DeliveryContext,
) => void | TicketHandlerResult | Promise<void | TicketHandlerResult>;

/** Receives chat A approval callbacks; same contract as {@link TicketHandler}. */
export type ApprovalHandler = (approvals: ApprovalCallback[], ctx: DeliveryContext) => void | Promise<void>;

/** What a {@link ReviewHandler} resolves with: the 200 answer (accepted with the ticket, or ignored with the reason). */
export interface ReviewHandlerResult {
  reply: WebhookReply;
}

/**
 * Receives the reviews of one delivery (see ReviewEvent) and decides
 * whether they start follow-up runs. Same contract as {@link TicketHandler}:
 * the delivery id is claimed before and committed after it resolves.
 */
export type ReviewHandler = (reviews: ReviewEvent[], ctx: DeliveryContext) => Promise<ReviewHandlerResult>;
