import type { Ticket } from "@errand/channel-sdk";
import type { TicketSink } from "../sources/ticket-source.js";
import type { AcceptOutcome, HandledDelivery, Store } from "../store/store.js";

interface Waiter {
  tickets: readonly Ticket[];
  delivery: HandledDelivery | undefined;
  resolve(outcomes: AcceptOutcome[]): void;
  reject(error: unknown): void;
}

/** Options of {@link createBatchedSink}. */
export interface BatchedSinkOptions {
  store: Store;
  /** Engine of the runs created for new tickets (`engines.default`). */
  engine: string;
  /** Called after each commit with its outcomes (wakes the loop). */
  onCommitted(outcomes: AcceptOutcome[]): void;
  /**
   * The repository of a tracker's tickets, which name none (`ticketing.config.repo_url`):
   * set on that source's tickets without a repo_url, whether polled or from its webhook.
   */
  defaultRepo?: { source: string; url: string };
}

/**
 * A {@link TicketSink} that writes every batch handed to it in the same
 * event-loop turn with one store transaction, and resolves each caller only
 * after that commit: a 200 from the intake means the ticket is stored. One
 * transaction per turn rather than per request keeps SQLite's fsyncs (WAL
 * commits) from bounding the intake's throughput under load. The delivery
 * ids handed with the tickets are marked handled in that same transaction,
 * so a webhook request costs its claim and its share of one batch.
 */
export function createBatchedSink(options: BatchedSinkOptions): TicketSink {
  let waiting: Waiter[] = [];
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const batch = waiting;
    waiting = [];
    const all: Ticket[] = [];
    const handled: HandledDelivery[] = [];
    const repo = options.defaultRepo;
    for (const w of batch) {
      if (w.delivery !== undefined) handled.push(w.delivery);
      for (const t of w.tickets) all.push(repo !== undefined && t.repoUrl === "" && t.source === repo.source ? { ...t, repoUrl: repo.url } : t);
    }
    options.store.acceptTickets(all, options.engine, handled).then(
      (outcomes) => {
        let at = 0;
        for (const w of batch) {
          w.resolve(outcomes.slice(at, at + w.tickets.length));
          at += w.tickets.length;
        }
        options.onCommitted(outcomes);
      },
      (error: unknown) => {
        for (const w of batch) w.reject(error);
      },
    );
  };

  return {
    accept(tickets, delivery) {
      if (tickets.length === 0 && delivery === undefined) return Promise.resolve([]);
      return new Promise<AcceptOutcome[]>((resolve, reject) => {
        waiting.push({ tickets, delivery, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          // setImmediate runs after this turn's I/O callbacks: every request parsed in this turn joins the batch.
          setImmediate(flush);
        }
      });
    },
  };
}
