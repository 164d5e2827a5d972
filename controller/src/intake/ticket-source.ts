import type { Ticket } from "@errand/channel-sdk";
import type { AcceptOutcome, DeliveryOutcome, HandledDelivery } from "../store/store.js";

/** Where a source hands its tickets: resolves once they are stored (durably). */
export interface TicketSink {
  /** Stores `tickets`; resolves after the commit. */
  accept(tickets: readonly Ticket[]): Promise<AcceptOutcome[]>;
  /**
   * Stores the tickets of one webhook delivery, checking and marking its
   * id in the same transaction (see Store.acceptDeliveries): resolved
   * `new`, the tickets and the id are both stored; `duplicate` or
   * `in_flight`, the id was there and nothing was written; rejected,
   * neither was.
   */
  acceptDelivery(tickets: readonly Ticket[], delivery: HandledDelivery): Promise<DeliveryOutcome>;
}

/** Whether a source is working, for `/readyz`. */
export interface SourceHealth {
  ready: boolean;
  detail: string;
}

/**
 * Where tickets come from: the webhook intake, or a poller of a tracker or
 * code host. Every source feeds the same sink, so a ticket is the same
 * ticket whichever way it came: (source, id) as the intake produces it.
 */
export interface TicketSource {
  /** `webhook`, `tracker_a`, ... for logs and metrics. */
  readonly name: string;
  /** Starts delivering to `sink`; resolves once the source is up (the port bound, the first poll scheduled). */
  start(sink: TicketSink): Promise<void>;
  /** Stops taking tickets in; resolves once in-flight hand-offs settled. */
  stop(): Promise<void>;
  health(): SourceHealth;
}
