import type { Logger } from "@errand/channel-sdk";
import pg from "pg";
import { StoreError } from "../../errors.js";
import { requireMs, requireText } from "../input-checks.js";
import type { Leadership } from "../store.js";
import { connectionConfig } from "./connection-config.js";
import { LEADER_LOCK } from "./lock-keys.js";

const KEY = `${LEADER_LOCK}, hashtext(current_schema())`;
const THE_LOCK = `l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND l.classid = ${LEADER_LOCK}::oid AND l.objid = hashtext(current_schema())::oid`;
/**
 * One statement, so that a session whose idle timeout is a few
 * milliseconds is never idle in the middle: sets the lease and the name,
 * takes the lock unless this session holds it (taking it again would
 * stack a second hold), and names the holder when it is someone else.
 */
const LEAD = `
  WITH attempt AS MATERIALIZED (
    SELECT set_config('idle_session_timeout', $1, false) AS lease, set_config('application_name', $2, false) AS name,
      CASE WHEN EXISTS (SELECT 1 FROM pg_locks l WHERE ${THE_LOCK} AND l.pid = pg_backend_pid()) THEN true
           ELSE pg_try_advisory_lock(${KEY}) END AS got
  )
  SELECT attempt.got, other.pid, other.application_name FROM attempt LEFT JOIN LATERAL (
    SELECT a.pid, a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT attempt.got AND ${THE_LOCK} LIMIT 1
  ) other ON true`;
const UNLOCK = `SELECT pg_advisory_unlock(${KEY})`;
/** Session names show who leads: `errand:` and the owner, cut to PostgreSQL's 63 bytes. */
const PREFIX = "errand:";
const sessionName = (owner: string) =>
  Buffer.from(PREFIX + owner)
    .subarray(0, 63)
    .toString()
    .replace(/\uFFFD$/, "");
/** Bound of one tryLead when the lease is shorter: an answer from the server takes milliseconds. */
const MIN_DEADLINE_MS = 2000;

interface Session {
  client: pg.Client;
  alive: boolean;
}

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
      if (holder !== undefined && session === failed)
        logger?.warn("the leadership connection of the PostgreSQL store failed: the lead went with it", {
          location,
          error: error.message,
        });
      drop(failed);
    });
    // A connection that outlived its deadline may arrive after close(): it must not linger.
    if (closed) {
      drop(s);
      throw new StoreError(`store ${location} is closed: taking the lead refused`, {
        hint: "this is a bug: the store was used after close(); open a new one",
      });
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

/** One attempt to take the lead on the session's connection; names the leader when another leads. */
async function askToLead(client: pg.Client, owner: string, ttlMs: number): Promise<Leadership> {
  const { rows } = await client.query<{ got: boolean; pid: number | null; application_name: string | null }>(LEAD, [
    String(ttlMs),
    sessionName(owner),
  ]);
  const row = rows[0];
  if (row?.got) return { leading: true, leader: owner };
  const name = row?.application_name ?? "";
  const leader =
    row?.pid == null ? undefined : name.startsWith(PREFIX) ? name.slice(PREFIX.length) : `session ${row.pid}`;
  return { leading: false, leader };
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

/** A session of its own, named after `owner`; `onError` hears of its connection failing once connected, or while connecting. */
async function connectSession(
  connectionString: string,
  owner: string,
  onError: (s: Session, error: Error) => void,
): Promise<Session> {
  const client = new pg.Client({ ...connectionConfig(connectionString), application_name: sessionName(owner) });
  const s: Session = { client, alive: true };
  client.on("error", (error) => onError(s, error));
  try {
    await client.connect();
  } catch (error) {
    s.alive = false;
    client.end().catch(() => {});
    throw error;
  }
  return s;
}
