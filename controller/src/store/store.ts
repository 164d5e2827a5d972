import type { TaskResult, Ticket } from "@errand/channel-sdk";
import type { FollowUpContext } from "../runs/follow-up.js";
import type { Actor, RunState, RunWithTicket, TaskRun, TicketKey, Transition } from "../runs/task-run.js";
import type { ApprovalMessageTake, ApprovalMessageUpdate } from "./approval-message.js";

/** What happened to one ticket handed to {@link Store.acceptTickets}. */
export type AcceptOutcome =
  /** New ticket: stored, and its first TaskRun created in Queued (in AwaitingApproval when `awaitingApproval` is set). */
  | { kind: "queued"; ticket: TicketKey; runId: string; awaitingApproval?: true }
  /** The ticket already has a TaskRun (active or finished): nothing new starts. */
  | { kind: "existing"; ticket: TicketKey; runId: string; state: RunState };

/** What {@link Store.claimDelivery} found for a webhook delivery id. */
export type DeliveryClaim = "new" | "duplicate" | "in_flight";

/** A webhook delivery id, as a batch checks and marks it ({@link Store.acceptDeliveries}). */
export interface HandledDelivery {
  /** The delivery's key, `source:delivery-id`. */
  key: string;
  /** How long the id stays a duplicate after the commit, ms. */
  ttlMs: number;
}

/** One delivery's part of a batch handed to {@link Store.acceptDeliveries}. */
export interface DeliveryTickets {
  tickets: readonly Ticket[];
  /** The delivery id the tickets came with; none for tickets that came without one (polled, or an unsigned sender's). */
  delivery?: HandledDelivery;
}

/** What {@link Store.acceptDeliveries} did with one delivery. */
export type DeliveryOutcome =
  /** Its id was new (or it had none): its tickets are stored and its id is marked handled. */
  | { delivery: "new"; outcomes: AcceptOutcome[] }
  /** Its id was handled already (`duplicate`) or is claimed by a hand-off still running (`in_flight`): nothing was written. */
  | { delivery: "duplicate" | "in_flight" };

/** Options of {@link Store.acceptTickets} and {@link Store.acceptDeliveries}. */
export interface AcceptOptions {
  /**
   * True when a new ticket's first run must wait for a person's approval:
   * it is created in AwaitingApproval instead of Queued. Asked once per new
   * ticket, inside the transaction; it must be quick and must not throw.
   */
  needsApproval?: (ticket: Ticket) => boolean;
}

/** A change of state, applied only when the run is in one of `from`. */
export interface TransitionRequest {
  runId: string;
  from: readonly RunState[];
  to: RunState;
  reason: string;
  /** Fields written in the same transaction as the transition. */
  patch?: Partial<Pick<TaskRun, "backend" | "result" | "costUsd" | "logRef" | "attachment">>;
  /** Milliseconds since the epoch; default now. */
  at?: number;
  /** Who asked for it, stored with the transition; undefined: the controller itself. */
  actor?: Actor;
}

/** What {@link Store.createFollowUp} needs. */
export interface FollowUpRequest {
  /** The run followed: it must be the newest run of its ticket, and finished. */
  parentRunId: string;
  followUp: FollowUpContext;
  /** Reason of the new run's first transition. */
  reason: string;
  /** At most this many follow-up runs per pull request (`repositories.codehost_a.follow_ups.max_per_pull_request`). */
  maxPerPullRequest: number;
}

/** What {@link Store.findPullRequestRun} found for a pull request's address. */
export interface PullRequestRuns {
  /** The run that ended with this pull request (the first one, when several reported it). */
  opened: TaskRun;
  /** The newest run of the same ticket: the one a follow-up follows. */
  latest: TaskRun;
  ticket: Ticket;
}

/** Filter of {@link Store.listRuns}. */
export interface RunFilter {
  states?: readonly RunState[];
  ticket?: TicketKey;
  /** Runs of tickets from this source only. */
  source?: string;
  /** Runs of tickets on this repository (the ticket's `repoUrl`, compared exactly) only. */
  repo?: string;
  /**
   * Keyset paging: only runs older than this one in the list's order (created earlier, or at the same time with a
   * smaller id). Pass the last run of a page to get the next page; the cost of a page does not grow with its depth.
   */
  before?: RunCursor;
  /** Newest first; default 100. */
  limit?: number;
}

/** A position in the list of runs ({@link RunFilter.before}): a run's `createdAt` and `id`. */
export interface RunCursor {
  createdAt: number;
  id: string;
}

/** Options of {@link Store.tryLead}. */
export interface LeadOptions {
  /**
   * Take the lead from this holder even before its lease ends: the caller
   * proved it dead (a controller on this host whose pid is gone). Stores
   * whose leadership ends with the holder's connection may ignore it.
   */
  replacing?: string;
}

/** Result of {@link Store.tryLead}. */
export interface Leadership {
  /** True when the caller leads now. */
  leading: boolean;
  /** Who leads (host/pid of a controller), when anyone does. */
  leader: string | undefined;
}

/** Counts for metrics and `/readyz`. */
export type RunCounts = Record<RunState, number>;

/**
 * Durable state of the controller: accepted tickets, webhook delivery ids,
 * TaskRuns and every transition. Every implementation (SQLite, PostgreSQL)
 * passes the same conformance suite (controller/test/store/conformance.ts).
 *
 * Rules every implementation keeps:
 * - a ticket is identified by (source, id); {@link Store.acceptTickets} creates at
 *   most one first run per ticket, also when several processes race;
 * - the delivery ids handed to {@link Store.acceptDeliveries} are checked and
 *   marked in the batch's transaction: no crash leaves tickets stored whose
 *   delivery id is not marked handled, or the other way round, and no two
 *   batches (in any processes) both find one id new;
 * - a delivery id is shared by every process on the database and outlives
 *   restarts until its TTL ends;
 * - a transition is applied only from the states it names, with its time
 *   and reason stored in the same transaction;
 * - {@link Store.claimQueued} hands each Queued run to one caller only, until the
 *   claim is released or expires.
 */
export interface Store {
  /** Which implementation: `sqlite`, `postgres`. */
  readonly kind: string;
  /** Where it lives, for logs (a file path, a server address without credentials). */
  readonly location: string;
  /** The schema version it runs on (its migrations brought the database to it), for the console's store page. */
  readonly schemaVersion?: number;

  /**
   * Stores the tickets of one batch in one transaction and creates a
   * Queued run (attempt 1, `engine`) for each ticket seen for the first
   * time (AwaitingApproval when `options.needsApproval` says so). Resolves only after the commit. Outcomes are in input order; a
   * ticket repeated within the batch is `existing` the second time.
   */
  acceptTickets(tickets: readonly Ticket[], engine: string, options?: AcceptOptions): Promise<AcceptOutcome[]>;
  /**
   * Stores the tickets of several deliveries in one transaction, as
   * {@link Store.acceptTickets} does, checking and marking each delivery's id in
   * that same transaction: an id handled before (its TTL not over) is a
   * `duplicate` and a claimed one (see {@link Store.claimDelivery}) `in_flight`,
   * and such a delivery's tickets are not written; any other id is marked
   * handled for its `ttlMs` with its tickets, so the tickets and their id
   * commit together or not at all, and a batch that fails leaves every id
   * as it was. An id repeated within the batch is a `duplicate` after its
   * first delivery. Results are in input order. This is how the webhook
   * intake stores a delivery with one transaction and no claim before it.
   */
  acceptDeliveries(
    deliveries: readonly DeliveryTickets[],
    engine: string,
    options?: AcceptOptions,
  ): Promise<DeliveryOutcome[]>;

  /**
   * Claims a webhook delivery id (`source:id`) for `ttlMs`, in one
   * transaction: `new` (claimed now), `in_flight` (claimed and not yet
   * handled), `duplicate` (handled, its TTL not over); an expired claim or
   * mark counts as absent. See the intake's DedupeStore protocol. The
   * intake claims only ids of deliveries without tickets (approvals); those
   * with tickets go to {@link Store.acceptDeliveries}.
   */
  claimDelivery(key: string, ttlMs: number): Promise<DeliveryClaim>;
  /**
   * Marks a delivery id as handled (a duplicate until its TTL ends), in a
   * transaction of its own. The intake marks ids with their tickets instead
   * ({@link Store.acceptDeliveries}); this is for deliveries without tickets.
   */
  commitDelivery(key: string, ttlMs: number): Promise<void>;
  /** Forgets a claim (or a mark), so the sender's retry goes through. */
  releaseDelivery(key: string): Promise<void>;

  /**
   * Claims up to `limit` Queued runs, oldest first, for `owner` until
   * `leaseMs` passes; a run with an unexpired claim (anyone's, `owner`'s
   * own included) is skipped. Returns them with their tickets.
   */
  claimQueued(owner: string, limit: number, leaseMs: number): Promise<RunWithTicket[]>;
  /**
   * Drops every claim on Queued runs. The loop calls it when it starts
   * (as the only loop, or the newly elected leader): claims left by a loop
   * that died would otherwise hold their runs until the lease ends.
   * Returns how many claims were dropped.
   */
  releaseAllClaims(): Promise<number>;
  /** Gives back a claim taken with {@link Store.claimQueued} without starting the run. */
  releaseClaim(runId: string, owner: string): Promise<void>;

  /**
   * Applies a transition when the run is in one of `req.from`. Returns the
   * updated run, or undefined when the run was in another state (someone
   * else moved it first). Throws a StoreError for a transition that
   * ALLOWED_TRANSITIONS does not list.
   */
  transition(req: TransitionRequest): Promise<TaskRun | undefined>;
  /** Records the latest cost and attachment of a Running run without a transition. */
  updateRunning(
    runId: string,
    patch: Partial<Pick<TaskRun, "costUsd" | "attachment" | "logRef" | "branch">>,
  ): Promise<void>;

  /** Creates a new Queued attempt for the ticket of `runId`; the run must be finished. `actor` is stored with its first transition. */
  retry(runId: string, reason: string, actor?: Actor): Promise<TaskRun>;
  /**
   * Creates a follow-up run in one transaction: a new Queued attempt of the
   * parent's ticket, with the parent's engine, `parentRunId` and the
   * follow-up context. Refused with ConflictError when a run of the ticket
   * is active (one active run per pull request), when the parent is not the
   * ticket's newest run, or when the pull request has had
   * `maxPerPullRequest` follow-ups already; NotFoundError for an unknown
   * parent. Of two callers racing on one ticket, one wins.
   */
  createFollowUp(req: FollowUpRequest): Promise<TaskRun>;
  /**
   * The runs of the ticket whose run ended with `pullRequestUrl` as its
   * result's pull request (recorded by {@link Store.transition}), or undefined
   * when no run opened it: review events on other pull requests are not errand's. Addresses are compared
   * without case, a trailing `/`, `#...` or `?...`.
   */
  findPullRequestRun(pullRequestUrl: string): Promise<PullRequestRuns | undefined>;
  /** Records the engine's session id of a run (any state); NotFoundError for an unknown id. */
  recordSession(runId: string, sessionId: string): Promise<void>;
  /**
   * Asks for a run to be cancelled. A Queued or AwaitingApproval run is Cancelled at once and
   * marked for {@link Store.takeUnannounced} (no loop ended it, so no loop told
   * the observers); a Running run gets `cancelRequestedAt`, and `reason` the
   * first request's reason (who asked, from where), and the loop stops it
   * with that reason. Returns the run as it is after the request. Throws
   * ConflictError for a finished run and NotFoundError for an unknown id.
   * `actor` is stored with the Cancelled transition it makes; for a Running
   * run, the first request's actor is kept (`cancelRequestedBy`) and
   * {@link Store.transition} stores it with the run's Cancelled transition when
   * that request names no actor of its own.
   */
  requestCancel(runId: string, reason: string, actor?: Actor): Promise<TaskRun>;
  /**
   * Takes up to `limit` runs that ended outside the loop (a Queued run
   * cancelled with {@link Store.requestCancel}, an AwaitingApproval run refused,
   * timed out or cancelled) and whose end was not taken yet,
   * oldest end first, with their tickets. The mark is cleared in the same
   * transaction, so each such run is returned once, to one caller, across
   * every process on the database; a caller that dies before telling the
   * observers loses that message (as a loop that dies between storing a
   * run's end and telling it does).
   */
  takeUnannounced(limit: number): Promise<RunWithTicket[]>;
  /**
   * Takes the announcement of a run awaiting approval: true for the one
   * caller, across every process and restart on the database, that finds
   * the run AwaitingApproval and not announced yet (it then tells the
   * channels); false for every other call, and for a run in another state
   * or unknown. A caller that dies before telling loses that message.
   */
  claimApprovalAnnouncement(runId: string): Promise<boolean>;
  /**
   * Records where chat A shows the approval message of a run, once chat A
   * took it. The first record stays (a later one changes nothing), so a
   * callback naming its message may record it too. NotFoundError for an
   * unknown run.
   */
  recordApprovalMessage(runId: string, channel: string, ts: string): Promise<void>;
  /**
   * Takes the approval messages to update: runs no longer AwaitingApproval
   * whose message is recorded, not updated yet, not held by another taker
   * (its lease expired) and tried fewer than `maxAttempts` times, oldest
   * run first. Each is held for `leaseMs` and its attempt counted in the
   * same statement, so one caller, across every process on the database,
   * gets it at a time. The caller ends it with {@link Store.finishApprovalMessageUpdate}.
   */
  takeApprovalMessageUpdates(take: ApprovalMessageTake): Promise<ApprovalMessageUpdate[]>;
  /**
   * Ends a taken update: `updated` marks the message updated for good (it is
   * never taken again); otherwise the hold is kept `retryAfterMs` more (0:
   * released now), and a take after that tries again while attempts remain.
   */
  finishApprovalMessageUpdate(runId: string, updated: boolean, retryAfterMs?: number): Promise<void>;

  getRun(runId: string): Promise<TaskRun | undefined>;
  getTicket(key: TicketKey): Promise<Ticket | undefined>;
  listRuns(filter?: RunFilter): Promise<TaskRun[]>;
  transitions(runId: string): Promise<Transition[]>;
  /** Number of runs in each state. */
  countRuns(): Promise<RunCounts>;
  /** Running runs whose cancel was requested. */
  cancelRequested(): Promise<TaskRun[]>;

  /**
   * Takes or keeps the leadership of the reconciliation loop for `owner`:
   * at most one owner leads at a time among every process using this store.
   * Returns whether `owner` leads now and who does. Called again before
   * `ttlMs` passes, it renews; an owner that stops calling loses the lead
   * after `ttlMs` (SQLite: a lease row) or when its connection ends
   * (PostgreSQL: a session advisory lock), whichever the store uses.
   */
  tryLead(owner: string, ttlMs: number, options?: LeadOptions): Promise<Leadership>;
  /** Gives the leadership up at once (a clean shutdown), so another process takes over without waiting. */
  resign(owner: string): Promise<void>;

  /** Closes the connection(s); further calls reject. Safe to call twice. */
  close(): Promise<void>;
}

/** Result of a finished run, as stored (kept here so stores need not import the SDK at run time). */
export type StoredResult = TaskResult;
