import { resolve } from "node:path";
import type { Logger } from "@errand/channel-sdk";
import { StoreError } from "../../errors.js";
import { requireCount } from "../input-checks.js";
import type { Store } from "../store.js";
import { guardedApprovalMessageOps } from "./approval-message-ops.js";
import { startCheckpointer } from "./checkpointer.js";
import { guardedFollowUpOps } from "./follow-up-ops.js";
import { createIntakeOps } from "./intake-ops.js";
import { createLeaderOps } from "./leader-ops.js";
import { migrate, SCHEMA_VERSION } from "./migrations.js";
import { BUSY_TIMEOUT_MS, openDatabase } from "./open-database.js";
import { createQueryOps } from "./query-ops.js";
import { createRunOps } from "./run-ops.js";
import { toStoreError } from "./sqlite-error.js";
import { prepareStatements, type SqliteContext } from "./statements.js";

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions {
  /** The database file; created with its folder when missing. */
  path: string;
  /** Clock in milliseconds since the epoch (tests). */
  now?: () => number;
  logger?: Logger;
  /** How long a write waits for another process's lock before failing, ms; default 5000. */
  busyTimeoutMs?: number;
  /**
   * How often a background thread checkpoints the WAL into the database
   * file, ms; default 1000. 0 leaves checkpoints to SQLite, on this
   * connection (fine for short commands such as `errand runs cancel`).
   */
  checkpointIntervalMs?: number;
}

/**
 * Opens the SQLite {@link Store} at `options.path`: sets WAL and the other
 * connection settings, migrates the schema (refusing a database from a
 * newer errand) and prepares the statements. Opening reads no table, so
 * it takes the same time with ten runs stored or a million.
 *
 * better-sqlite3 is synchronous: each call runs to its commit before the
 * returned promise settles, which is what "resolves only after the commit"
 * asks for. Every failure becomes a StoreError naming the file and a fix.
 */
export async function createSqliteStore(options: SqliteStoreOptions): Promise<Store> {
  const path = resolve(options.path);
  const now = options.now ?? Date.now;
  const busyMs =
    options.busyTimeoutMs === undefined ? BUSY_TIMEOUT_MS : requireCount(options.busyTimeoutMs, "store busy timeout");
  const checkpointMs = requireCount(options.checkpointIntervalMs ?? 1000, "store checkpoint interval");
  // With the background thread on, SQLite's own checkpoint is only a backstop (about 40 MB of WAL).
  const db = openDatabase(path, busyMs, checkpointMs > 0 ? 10_000 : 1000);
  let context: SqliteContext;
  try {
    const migrated = migrate(db, path, now());
    context = { db, st: prepareStatements(db), now };
    if (migrated.from !== migrated.to)
      options.logger?.info("store schema migrated", { path, from: migrated.from, to: migrated.to });
    options.logger?.debug("store opened", { path, schemaVersion: migrated.to });
  } catch (error) {
    db.close();
    throw toStoreError(error, path, "preparing the schema", busyMs);
  }

  const checkpointer = checkpointMs > 0 ? startCheckpointer(path, checkpointMs, options.logger) : undefined;
  let closed = false;
  const guard =
    <A extends unknown[], R>(action: string, fn: (...args: A) => R) =>
    async (...args: A): Promise<R> => {
      if (closed) {
        throw new StoreError(`store ${path} is closed: ${action} refused`, {
          hint: "this is a bug: the store was used after close(); open a new one",
        });
      }
      try {
        return fn(...args);
      } catch (error) {
        throw toStoreError(error, path, action, busyMs);
      }
    };

  const intake = createIntakeOps(context);
  const runs = createRunOps(context);
  const queries = createQueryOps(context);
  const leader = createLeaderOps(context);
  return {
    kind: "sqlite",
    location: path,
    schemaVersion: SCHEMA_VERSION,
    acceptTickets: guard("storing tickets", intake.acceptTickets),
    acceptDeliveries: guard("storing deliveries", intake.acceptDeliveries),
    claimDelivery: guard("claiming a delivery id", intake.claimDelivery),
    commitDelivery: guard("committing a delivery id", intake.commitDelivery),
    releaseDelivery: guard("releasing a delivery id", intake.releaseDelivery),
    claimQueued: guard("claiming queued runs", runs.claimQueued),
    releaseAllClaims: guard("releasing every claim", runs.releaseAllClaims),
    releaseClaim: guard("releasing a claim", runs.releaseClaim),
    transition: guard("recording a transition", runs.transition),
    updateRunning: guard("updating a running run", runs.updateRunning),
    retry: guard("retrying a run", runs.retry),
    requestCancel: guard("cancelling a run", runs.requestCancel),
    takeUnannounced: guard("taking runs to announce", runs.takeUnannounced),
    claimApprovalAnnouncement: guard("marking a run's approval announced", runs.claimApprovalAnnouncement),
    ...guardedFollowUpOps(context, guard),
    ...guardedApprovalMessageOps(context, guard),
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
      await checkpointer?.stop();
      // The last connection to close checkpoints the WAL and removes it.
      db.close();
    },
  };
}
