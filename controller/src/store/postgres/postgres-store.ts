import type { Logger } from "@errand/channel-sdk";
import type { Pool } from "pg";
import { StoreError } from "../../errors.js";
import type { Store } from "../store.js";
import { createApprovalMessageOps } from "./approval-message-ops.js";
import { createClaimOps } from "./claim-ops.js";
import { createPool } from "./create-pool.js";
import { createFollowUpOps } from "./follow-up-ops.js";
import { createIntakeOps } from "./intake-ops.js";
import { createLeaderOps } from "./leader-ops.js";
import { migrate, SCHEMA_VERSION } from "./migrations.js";
import type { PostgresContext } from "./postgres-context.js";
import { toStoreError } from "./postgres-error.js";
import { createQueryOps } from "./query-ops.js";
import { createRunOps } from "./run-ops.js";
import { readServerAddress, type ServerAddress } from "./server-address.js";

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:5432/database`, as node-postgres reads it (sslmode, options=-c search_path=...). */
  connectionString: string;
  /** Clock in milliseconds since the epoch (tests). */
  now?: () => number;
  logger?: Logger;
  /** Most connections the store opens for its work; default 10. The leadership holds one more of its own. */
  poolSize?: number;
}

/** `idle_session_timeout`, the leader's lease, came with PostgreSQL 14. */
const OLDEST_SERVER = 140_000;

/**
 * Opens the PostgreSQL {@link Store}: connects, refuses a server older than
 * 14, and migrates errand's tables in the connection's current schema
 * (refusing a schema from a newer errand). Several controllers may share
 * the database: intake, claims and transitions stay exactly-once between
 * them (see docs/postgres-store.md). Every failure becomes a StoreError
 * naming the server (`host:port/database`, never the password) and a fix.
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const server = readServerAddress(options.connectionString);
  const now = options.now ?? Date.now;
  const poolSize = options.poolSize ?? 10;
  if (!Number.isSafeInteger(poolSize) || poolSize < 1) {
    throw new StoreError(`store pool size must be a whole number of 1 or more, got ${String(poolSize)}`, {
      hint: "this is a bug in the caller of the store",
    });
  }
  const pool = await openPool(options, server, poolSize, now);

  let closed = false;
  const guard =
    <A extends unknown[], R>(what: string, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (closed) {
        throw new StoreError(`store ${server.location} is closed: ${what} refused`, {
          hint: "this is a bug: the store was used after close(); open a new one",
        });
      }
      try {
        return await fn(...args);
      } catch (error) {
        throw toStoreError(error, server, what);
      }
    };

  const context: PostgresContext = { pool, now };
  const intake = createIntakeOps(context);
  const claims = createClaimOps(context);
  const runs = createRunOps(context);
  const queries = createQueryOps(context);
  const followUps = createFollowUpOps(context);
  const messages = createApprovalMessageOps(context);
  const leader = createLeaderOps(options.connectionString, server.location, options.logger);
  return {
    kind: "postgres",
    location: server.location,
    schemaVersion: SCHEMA_VERSION,
    acceptTickets: guard("storing tickets", intake.acceptTickets),
    acceptDeliveries: guard("storing deliveries", intake.acceptDeliveries),
    claimDelivery: guard("claiming a delivery id", intake.claimDelivery),
    commitDelivery: guard("committing a delivery id", intake.commitDelivery),
    releaseDelivery: guard("releasing a delivery id", intake.releaseDelivery),
    claimQueued: guard("claiming queued runs", claims.claimQueued),
    releaseAllClaims: guard("releasing every claim", claims.releaseAllClaims),
    releaseClaim: guard("releasing a claim", claims.releaseClaim),
    transition: guard("recording a transition", runs.transition),
    updateRunning: guard("updating a running run", runs.updateRunning),
    retry: guard("retrying a run", runs.retry),
    requestCancel: guard("cancelling a run", runs.requestCancel),
    takeUnannounced: guard("taking runs to announce", claims.takeUnannounced),
    claimApprovalAnnouncement: guard("marking a run's approval announced", claims.claimApprovalAnnouncement),
    recordApprovalMessage: guard("recording a run's approval message", messages.recordApprovalMessage),
    takeApprovalMessageUpdates: guard("taking approval messages to update", messages.takeApprovalMessageUpdates),
    finishApprovalMessageUpdate: guard("finishing an approval message update", messages.finishApprovalMessageUpdate),
    createFollowUp: guard("creating a follow-up run", followUps.createFollowUp),
    findPullRequestRun: guard("finding the run of a pull request", followUps.findPullRequestRun),
    recordSession: guard("recording an engine session", followUps.recordSession),
    getRun: guard("reading a run", queries.getRun),
    getTicket: guard("reading a ticket", queries.getTicket),
    listRuns: guard("listing runs", queries.listRuns),
    transitions: guard("reading transitions", queries.transitions),
    countRuns: guard("counting runs", queries.countRuns),
    cancelRequested: guard("listing cancel requests", queries.cancelRequested),
    tryLead: guard("taking the lead of the loop", leader.tryLead),
    resign: guard("giving up the lead of the loop", leader.resign),
    async close() {
      if (closed) return;
      closed = true;
      // The leadership first: a standby may take over while the pool drains.
      await leader.close();
      await pool.end();
    },
  };
}

/** Connects, checks the server's version and migrates the schema; the pool is ended when any of it fails. */
async function openPool(
  options: PostgresStoreOptions,
  server: ServerAddress,
  poolSize: number,
  now: () => number,
): Promise<Pool> {
  const pool = createPool(options.connectionString, poolSize, options.logger, server.location);
  let action = "connecting";
  try {
    const { rows } = await pool.query<{ version: number }>(
      "SELECT current_setting('server_version_num')::int AS version",
    );
    const version = rows[0]?.version ?? 0;
    if (version < OLDEST_SERVER) {
      throw new StoreError(
        `store ${server.location}: the server runs PostgreSQL ${Math.floor(version / 10_000)}; errand needs 14 or newer`,
        {
          hint: "upgrade the server (PostgreSQL 13 and older are out of support), or use store.backend: sqlite",
        },
      );
    }
    action = "preparing the schema";
    const migrated = await migrate(pool, server.location, now());
    if (migrated.from !== migrated.to)
      options.logger?.info("store schema migrated", {
        location: server.location,
        schema: migrated.schema,
        from: migrated.from,
        to: migrated.to,
      });
    options.logger?.debug("store opened", {
      location: server.location,
      schema: migrated.schema,
      schemaVersion: migrated.to,
    });
  } catch (error) {
    await pool.end().catch(() => {});
    throw toStoreError(error, server, action);
  }
  return pool;
}
