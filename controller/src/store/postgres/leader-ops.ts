import type { Logger } from "@errand/channel-sdk";
import { StoreError } from "../../errors.js";
import { requireMs, requireText } from "../input-checks.js";
import type { Leadership } from "../store.js";
import { askToLead, connectSession, type Session, UNLOCK } from "./leader-session.js";

/** Bound of one tryLead when the lease is shorter: an answer from the server takes milliseconds. */
const MIN_DEADLINE_MS = 2000;

/** The leadership operations of the PostgreSQL store, and the closing of its dedicated connection. */
export interface LeaderOps {
  tryLead(owner: string, ttlMs: number): Promise<Leadership>;
  resign(owner: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The loop's leadership on PostgreSQL: a session-level advisory lock held
 * by a connection of its own (never a pooled one, which another call could
 * use or close). The lock lives exactly as long as that session: a leader
 * whose process dies, or whose connection drops, loses it at once. The
 * session's `idle_session_timeout` is the lease: a leader that stops
 * calling tryLead for `ttlMs` has its session, and so the lock, ended by
 * the server. After a dropped connection tryLead connects again and tries.
 */
export function createLeaderOps(connectionString: string, location: string, logger: Logger | undefined): LeaderOps {
  let session: Session | undefined;
  /** The owner leading through this store's session. */
  let holder: string | undefined;
  let closed = false;

  const drop = (s: Session) => {
    s.alive = false;
    if (session === s) {
      session = undefined;
      holder = undefined;
    }
    s.client.end().catch(() => {});
  };

  const open = async (owner: string): Promise<Session> => {
    const s = await connectSession(connectionString, owner, (failed, error) => {
      if (holder !== undefined && session === failed) warnLeadLost(logger, location, error);
      drop(failed);
    });
    // A connection that outlived its deadline may arrive after close(): it must not linger.
    if (closed) {
      drop(s);
      throw leadAfterClose(location);
    }
    session = s;
    return s;
  };

  const attempt = async (s: Session, owner: string, ttlMs: number): Promise<Leadership> => {
    const leadership = await askToLead(s.client, owner, ttlMs);
    holder = leadership.leading ? owner : undefined;
    return leadership;
  };

  const bounded = <T>(work: Promise<T>, s: Session | undefined, ms: number): Promise<T> =>
    withinDeadline(work, ms, location, () => {
      if (s) drop(s);
    });

  return {
    async tryLead(owner, ttlMs) {
      requireText(owner, "owner");
      requireMs(ttlMs, "ttlMs");
      if (holder !== undefined && holder !== owner) return { leading: false, leader: holder };
      const deadline = Math.max(ttlMs, MIN_DEADLINE_MS);
      const reused = session?.alive ? session : undefined;
      if (reused) {
        try {
          return await bounded(attempt(reused, owner, ttlMs), reused, deadline);
        } catch {
          // The session dropped (a restart, an administrator, the idle timeout): the lead went with it. Try on a new one.
          drop(reused);
        }
      }
      const fresh = await bounded(open(owner), undefined, deadline);
      return bounded(attempt(fresh, owner, ttlMs), fresh, deadline);
    },
    async resign(owner) {
      requireText(owner, "owner");
      const s = session;
      if (holder !== owner || !s?.alive) return;
      holder = undefined;
      try {
        await s.client.query(UNLOCK);
      } catch (error) {
        // Ending the session frees the lock as surely as the unlock would have.
        drop(s);
        throw error;
      }
    },
    async close() {
      closed = true;
      holder = undefined;
      const s = session;
      session = undefined;
      if (s) await s.client.end().catch(() => {});
    },
  };
}

/** The lead went with a failed connection: worth a warning, since another controller may lead from now on. */
function warnLeadLost(logger: Logger | undefined, location: string, error: Error): void {
  logger?.warn("the leadership connection of the PostgreSQL store failed: the lead went with it", {
    location,
    error: error.message,
  });
}

/** tryLead on a closed store: the caller's bug, refused rather than leaving a connection open. */
function leadAfterClose(location: string): StoreError {
  return new StoreError(`store ${location} is closed: taking the lead refused`, {
    hint: "this is a bug: the store was used after close(); open a new one",
  });
}

/** `work`, or a StoreError after `ms`; `onLate` drops a late session (its answer may never come). */
function withinDeadline<T>(work: Promise<T>, ms: number, location: string, onLate: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onLate();
      reject(
        new StoreError(
          `store ${location}: the server did not answer within ${ms} ms while taking the lead of the loop`,
          {
            hint: "check the connection to the PostgreSQL server; the lead is given up until it answers again",
          },
        ),
      );
    }, ms);
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
