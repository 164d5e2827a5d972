import pg from "pg";
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
/** Gives the lead back: unlocks the lock this session holds. */
export const UNLOCK = `SELECT pg_advisory_unlock(${KEY})`;
/** Session names show who leads: `errand:` and the owner, cut to PostgreSQL's 63 bytes. */
const PREFIX = "errand:";
const sessionName = (owner: string) =>
  Buffer.from(PREFIX + owner)
    .subarray(0, 63)
    .toString()
    .replace(/\uFFFD$/, "");
/** A dedicated connection of the leadership; `alive` until it failed or was ended. */
export interface Session {
  client: pg.Client;
  alive: boolean;
}

/** One attempt to take the lead on the session's connection; names the leader when another leads. */
export async function askToLead(client: pg.Client, owner: string, ttlMs: number): Promise<Leadership> {
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

/** A session of its own, named after `owner`; `onError` hears of its connection failing once connected, or while connecting. */
export async function connectSession(
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
