import { hostname } from "node:os";
import type { Logger } from "@errand/channel-sdk";
import type { Store } from "../store/store.js";

/** Options of {@link createLeaderElection}. */
export interface LeaderElectionOptions {
  store: Store;
  /** This controller's name: host and pid. */
  owner: string;
  logger: Logger;
  /** Lease length (SQLite); a lead not renewed within it passes to another controller. Default 15 s. */
  ttlMs?: number;
  /** How often the lead is tried for or renewed; default a third of the lease. */
  renewMs?: number;
  /** Called once this controller leads: start the loop. */
  onElected(): Promise<void>;
  /** Called when a lead this controller had is lost (it could not renew in time): the loop must stop at once. */
  onLost(reason: string): void;
}

/** Which controller runs the loop. */
export interface LeaderElection {
  /** Tries once at once, then keeps trying (standby) or renewing (leader). */
  start(): Promise<void>;
  /** Stops trying and gives the lead up, so a standby takes over without waiting for the lease. */
  stop(): Promise<void>;
  readonly leading: boolean;
  /** The leader as last seen. */
  readonly leader: string | undefined;
}

/**
 * Every replica serves the webhook intake; one runs the loop. A standby
 * tries for the lead every `renewMs`, so a dead leader is replaced within
 * one lease plus one try. A leader that cannot renew before its lease ends
 * gives up (onLost) rather than risk two loops starting the same runs.
 */
export function createLeaderElection(options: LeaderElectionOptions): LeaderElection {
  const ttlMs = options.ttlMs ?? 15_000;
  const renewMs = options.renewMs ?? Math.floor(ttlMs / 3);
  const { store, owner, logger } = options;
  let leading = false;
  let leader: string | undefined;
  let lastRenewal = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let electing: Promise<void> | undefined;

  const attempt = async () => {
    try {
      let result = await store.tryLead(owner, ttlMs);
      if (!result.leading && result.leader !== undefined && deadHereAndNow(result.leader)) {
        // A controller on this host that died (kill -9, OOM) would hold the lead until its lease ends: take it now.
        logger.info("the previous leader on this host is gone; taking the lead", { previous: result.leader });
        result = await store.tryLead(owner, ttlMs, { replacing: result.leader });
      }
      leader = result.leader;
      if (result.leading) {
        lastRenewal = Date.now();
        if (!leading) {
          leading = true;
          logger.info("leading: this controller runs the loop", { owner });
          electing = options.onElected();
          await electing;
        }
      } else if (leading) {
        leading = false;
        options.onLost(`another controller (${result.leader ?? "unknown"}) took the lead`);
      } else {
        logger.debug("standby: another controller runs the loop", { leader: result.leader });
      }
    } catch (error) {
      logger.error("could not try for the lead", { error });
      if (leading && Date.now() - lastRenewal >= ttlMs) {
        leading = false;
        options.onLost("the lead could not be renewed before the lease ended");
      }
    }
  };

  const loop = () => {
    if (stopped) return;
    timer = setTimeout(() => void attempt().finally(loop), renewMs);
  };

  return {
    get leading() {
      return leading;
    },
    get leader() {
      return leader;
    },
    async start() {
      await attempt();
      if (!leading)
        logger.info("standby: another controller runs the loop; serving intake and waiting for the lead", { leader });
      loop();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await electing?.catch(() => {});
      if (leading)
        await store
          .resign(owner)
          .catch((error: unknown) =>
            logger.warn("could not give the lead up; it passes when the lease ends", { error }),
          );
      leading = false;
    },
  };
}

/**
 * True when `leader` (`host/pid`) names a process of this host that no
 * longer exists. A pid reused since by another process reads as alive, so
 * the answer errs towards waiting for the lease, never towards two leaders.
 */
function deadHereAndNow(leader: string): boolean {
  const slash = leader.lastIndexOf("/");
  const pid = Number(leader.slice(slash + 1));
  if (leader.slice(0, slash) !== hostname() || !Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid)
    return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
