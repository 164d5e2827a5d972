import type { Ticket } from "@errand/channel-sdk";
import type { AcceptOutcome, HandledDelivery } from "../store/store.js";

/** Where a source hands its tickets: resolves once they are stored (durably). */
export interface TicketSink {
  /**
   * Stores `tickets`; resolves after the commit. With `delivery` (the
   * webhook delivery id they came with, claimed in the sink's store) the
   * id is marked handled in the same transaction as the tickets: resolved,
   * both are stored; rejected, neither is.
   */
  accept(tickets: readonly Ticket[], delivery?: HandledDelivery): Promise<AcceptOutcome[]>;
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
