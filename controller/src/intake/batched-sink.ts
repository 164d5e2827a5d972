import type { Ticket } from "@errand/channel-sdk";
import type { AcceptOutcome, DeliveryOutcome, DeliveryTickets, HandledDelivery, Store } from "../store/store.js";
import type { TicketSink } from "./ticket-source.js";

interface Waiter {
  tickets: readonly Ticket[];
  delivery: HandledDelivery | undefined;
  resolve(outcome: DeliveryOutcome): void;
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
  /** True when a new ticket's first run waits for approval (`guardrails.require_approval`). */
  needsApproval?: (ticket: Ticket) => boolean;
}

/**
 * A {@link TicketSink} that writes every batch handed to it in the same
 * event-loop turn with one store transaction, and resolves each caller only
 * after that commit: a 200 from the intake means the ticket is stored. One
 * transaction per turn rather than per request keeps SQLite's fsyncs (WAL
 * commits) from bounding the intake's throughput under load. A webhook
 * delivery's id is checked and marked in that same transaction
 * (Store.acceptDeliveries), so a webhook request costs its share of one
 * transaction and nothing else.
 */
export function createBatchedSink(options: BatchedSinkOptions): TicketSink {
  let waiting: Waiter[] = [];
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const batch = waiting;
    waiting = [];
    const repo = options.defaultRepo;
    const withRepo = (t: Ticket) =>
      repo !== undefined && t.repoUrl === "" && t.source === repo.source ? { ...t, repoUrl: repo.url } : t;
    const deliveries = batch.map((w): DeliveryTickets => {
      const tickets = repo === undefined ? w.tickets : w.tickets.map(withRepo);
      return w.delivery === undefined ? { tickets } : { tickets, delivery: w.delivery };
    });
    const hold = options.needsApproval;
    options.store.acceptDeliveries(deliveries, options.engine, hold === undefined ? {} : { needsApproval: hold }).then(
      (results) => {
        const stored: AcceptOutcome[] = [];
        batch.forEach((w, i) => {
          const result = results[i] as DeliveryOutcome;
          if (result.delivery === "new") stored.push(...result.outcomes);
          w.resolve(result);
        });
        options.onCommitted(stored);
      },
      (error: unknown) => {
        for (const w of batch) w.reject(error);
      },
    );
  };

  const enqueue = (tickets: readonly Ticket[], delivery: HandledDelivery | undefined) =>
    new Promise<DeliveryOutcome>((resolve, reject) => {
      waiting.push({ tickets, delivery, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        // setImmediate runs after this turn's I/O callbacks: every request parsed in this turn joins the batch.
        setImmediate(flush);
      }
    });

  return {
    async accept(tickets) {
      if (tickets.length === 0) return [];
      // Without a delivery id nothing is checked: the store answers `new`.
      const result = await enqueue(tickets, undefined);
      return result.delivery === "new" ? result.outcomes : [];
    },
    acceptDelivery: enqueue,
  };
}
