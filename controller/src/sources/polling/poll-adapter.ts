import type { Logger, TaskResult, Ticket } from "@errand/channel-sdk";
import type { TaskRun } from "../../runs/task-run.js";
import type { TicketingConfig } from "../ticketing-schema.js";

/** The ticket sources that can be polled (`ticketing.backend`). */
export type PollBackend = TicketingConfig["backend"];

/** One issue a poll saw, with the verdict of the source's rules. */
export interface PollCandidate {
  /**
   * The ticket, with `source` set to the backend and `id` exactly as the
   * webhook intake produces it for the same issue (one ticket, one identity).
   */
  ticket: Ticket;
  /** Why the rules skip it (wrong state, excluded label, not assigned...); undefined: pick it up. */
  skip: string | undefined;
}

/** What every adapter call gets. */
export interface PollContext {
  /** Aborted when the controller stops; pass it to every request. */
  signal: AbortSignal;
  logger: Logger;
}

/**
 * A vendor's side of polling and write-back (spec 3), behind the polling
 * source: the source schedules polls, backs off on failures and feeds the
 * sink; the adapter talks to the vendor's API through the vendor's SDK and
 * applies the vendor's rules. Every method may throw; the polling source
 * logs, counts and carries on.
 */
export interface PollAdapter {
  readonly backend: PollBackend;
  /**
   * Checks the configuration against the workspace once, at start: the team
   * exists, every state name exists (exact, case-sensitive), the labels can
   * be used. Throws a ControllerError with code ERR_INVALID_CONFIG naming
   * the key and listing the names that do exist.
   */
  prepare(ctx: PollContext): Promise<void>;
  /**
   * One poll: the issues the configured filter returns (every page), with
   * the rules applied. Uses conditional requests where the API offers them,
   * so that an idle poll costs nothing against the quota.
   */
  poll(ctx: PollContext): Promise<PollCandidate[]>;
  /** A run of one of this source's tickets started: in-progress label or state, comment. */
  pickedUp(ticket: Ticket, run: TaskRun, ctx: PollContext): Promise<void>;
  /** The run ended (or a guardrail refused it): failed label, completion comment with the PR link, completed state. */
  finished(ticket: Ticket, run: TaskRun, result: TaskResult, ctx: PollContext): Promise<void>;
  /** Epoch ms until which the vendor's rate limit holds requests back, 0 when none does (adapters that track it). */
  limitedUntil?(): number;
}
