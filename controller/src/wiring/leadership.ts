import type { Logger } from "@errand/channel-sdk";
import type { TicketSink } from "../intake/ticket-source.js";
import { createLeaderElection, type LeaderElection } from "../loop/leader-election.js";
import type { Reconciler } from "../loop/reconciler.js";
import type { PollingSource } from "../sources/polling/polling-source.js";
import type { Store } from "../store/store.js";

/** Options of {@link createLeadership}. */
export interface LeadershipOptions {
  store: Store;
  /** This controller's name in the lease. */
  owner: string;
  ttlMs: number;
  loop: Reconciler;
  polling: PollingSource | undefined;
  /** Where the poller hands its tickets. */
  sink: TicketSink;
  logger: Logger;
}

/** The election of the loop's leader, and what losing the lead means. */
export interface Leadership {
  election: LeaderElection;
  /** Settles with the reason when this controller lost the lead it had. */
  lost: Promise<string>;
}

/**
 * Wires the election: the leader runs the loop and the poller; a controller
 * that loses the lead says so through `lost` (its caller stops it).
 */
export function createLeadership(options: LeadershipOptions): Leadership {
  const { logger, polling } = options;
  let signalLost: (reason: string) => void = () => {};
  const lost = new Promise<string>((resolve) => (signalLost = resolve));
  const election = createLeaderElection({
    store: options.store,
    owner: options.owner,
    ttlMs: options.ttlMs,
    logger: logger.child({ component: "election" }),
    // Polling belongs to the leader too: a standby would only spend the vendor's quota on tickets it does not run.
    onElected: async () => {
      await options.loop.start();
      await polling?.start(options.sink);
    },
    onLost: (reason) => {
      logger.error("lost the lead of the loop; stopping", { reason });
      signalLost(reason);
    },
  });
  return { election, lost };
}
