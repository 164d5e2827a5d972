import type { Logger } from "@errand/channel-sdk";
import type { DeadlineQueue } from "./deadlines.js";
import type { DedupeStore } from "./dedupe/dedupe-store.js";
import { WebhookError, WebhookErrorCode } from "./errors.js";
import type {
  ApprovalHandler,
  DeliveryContext,
  ReviewHandler,
  ReviewHandlerResult,
  TicketHandler,
  TicketHandlerResult,
} from "./handlers.js";
import type { SourceOutcome } from "./parsing/source.js";
import type { WebhookReply } from "./responses.js";

/** What {@link deliver} needs from the server. */
export interface DeliverDeps {
  onTickets: TicketHandler;
  onApprovals: ApprovalHandler | undefined;
  /** Receives reviews on pull requests (follow-up runs); without it they are acknowledged and dropped. */
  onReviews?: ReviewHandler | undefined;
  dedupe: DedupeStore;
  /** The ticket handler checks and marks delivery ids with the tickets (WebhookServerOptions.dedupeWithTickets). */
  dedupeWithTickets: boolean;
  /** Hand-off deadlines (webhook.timeouts.handler_ms). */
  deadlines: DeadlineQueue;
  logger: Logger;
  /** Settling hand-offs, awaited on shutdown. */
  pending: Set<Promise<unknown>>;
}

/** Receives the 200 reply, or the {@link WebhookError} (503) to answer with. */
export type DeliverCallback = (error: WebhookError | undefined, reply?: WebhookReply) => void;

const DUPLICATE: WebhookReply = { status: "duplicate" };
const TIMED_OUT = "webhook handler timed out";

const unavailable = () =>
  new WebhookError(503, WebhookErrorCode.Unavailable, "the event could not be handed on; retry later", {
    "retry-after": "5",
  });
const inProgress = () =>
  new WebhookError(503, WebhookErrorCode.DeliveryInProgress, "this delivery id is being handled; retry later", {
    "retry-after": "1",
  });

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** Runs `op`, then `ok` or `fail`, without a promise hop when `op` is synchronous. */
function then<T>(op: () => T | PromiseLike<T>, ok: (value: T) => void, fail: (error: unknown) => void): void {
  let result: T | PromiseLike<T>;
  try {
    result = op();
  } catch (error) {
    fail(error);
    return;
  }
  if (isThenable(result)) result.then(ok, fail);
  else ok(result);
}

type HandlerResult = void | TicketHandlerResult | (ReviewHandlerResult & Partial<TicketHandlerResult>);

/**
 * A hand-off's {@link DeliveryContext}, its signal made on first use (most
 * handlers never look at it). A class rather than an object literal with a
 * `get signal()`: V8 gives every such literal a hidden class of its own,
 * kept in the old generation and pointing at the getter's closure, so each
 * request's objects outlived two scavenges and were promoted: scavenges
 * took 3.5 ms instead of 2, and the old generation grew by 1 MB with each
 * (docs/benchmarks.md, "The durable intake").
 */
class HandOffContext implements DeliveryContext {
  #controller: AbortController | undefined;
  #timedOut = false;
  constructor(
    readonly source: DeliveryContext["source"],
    readonly deliveryId: string | undefined,
    readonly deliveryKey: string | undefined,
  ) {}

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    if (this.#timedOut && !this.#controller.signal.aborted) this.#controller.abort(new Error(TIMED_OUT));
    return this.#controller.signal;
  }

  /** The server stopped waiting: the signal, made or still to be made, is aborted. */
  timeOut(): void {
    this.#timedOut = true;
    this.#controller?.abort(new Error(TIMED_OUT));
  }
}

async function runBoth(outcome: SourceOutcome, ctx: DeliveryContext, deps: DeliverDeps): Promise<HandlerResult> {
  const result = outcome.tickets.length > 0 ? await deps.onTickets(outcome.tickets, ctx) : undefined;
  await deps.onApprovals?.(outcome.approvals, ctx);
  return result;
}

function runHandlers(
  outcome: SourceOutcome,
  ctx: DeliveryContext,
  deps: DeliverDeps,
): HandlerResult | PromiseLike<HandlerResult> {
  if (outcome.reviews !== undefined && deps.onReviews) return deps.onReviews(outcome.reviews, ctx);
  if (outcome.approvals.length > 0) return runBoth(outcome, ctx, deps);
  return outcome.tickets.length > 0 ? deps.onTickets(outcome.tickets, ctx) : undefined;
}

function acceptedReply(outcome: SourceOutcome): WebhookReply {
  const tickets = new Array<string>(outcome.tickets.length);
  for (let i = 0; i < tickets.length; i++) tickets[i] = (outcome.tickets[i] as { id: string }).id;
  return outcome.approvals.length > 0
    ? { status: "accepted", tickets, approvals: outcome.approvals.length }
    : { status: "accepted", tickets };
}

/**
 * Hands a mapped delivery to the handlers, once per delivery id, and calls
 * `done` with the 200 reply or a 503 {@link WebhookError} when the handler
 * failed or ran out of time. The id is committed after the handlers
 * succeeded, unless the ticket handler reported that it committed the id
 * with its tickets. A hand-off that outlives its timeout keeps its dedupe
 * claim until it settles, so a retry that arrives meanwhile is told to
 * come back later rather than handled twice. With `dedupeWithTickets`, a
 * delivery of tickets alone is not claimed: the ticket handler checks
 * and marks its id in the transaction that stores them, and its `seen`
 * answers a known id. Synchronous stores and handlers are followed
 * without a promise hop.
 */
export function deliver(
  outcome: SourceOutcome,
  ctx: Omit<DeliveryContext, "signal" | "deliveryKey">,
  deps: DeliverDeps,
  done: DeliverCallback,
): void {
  if (outcome.approvals.length > 0 && !deps.onApprovals) {
    deps.logger.warn("approval callback dropped: no approval handler is configured", {
      source: ctx.source,
      delivery_id: ctx.deliveryId,
    });
    done(undefined, { status: "ignored", reason: "no approval handler is configured" });
    return;
  }
  if (outcome.reviews !== undefined && !deps.onReviews) {
    done(undefined, {
      status: "ignored",
      reason: "follow-ups on review need the controller with repositories.codehost_a",
    });
    return;
  }
  if (ctx.deliveryId === undefined) {
    handOff(outcome, ctx, undefined, false, deps, done);
    return;
  }
  const key = `${ctx.source}:${ctx.deliveryId}`;
  if (deps.dedupeWithTickets && outcome.tickets.length > 0 && outcome.approvals.length === 0) {
    handOff(outcome, ctx, key, false, deps, done);
    return;
  }
  then(
    () => deps.dedupe.claim(key),
    (claim) => {
      if (claim === "duplicate") done(undefined, DUPLICATE);
      else if (claim === "in_flight") done(inProgress());
      else handOff(outcome, ctx, key, true, deps, done);
    },
    // Nothing was handed on: the sender's retry is the way to get it through, as for a failed commit.
    (error) => {
      deps.logger.error("dedupe store failed", { source: ctx.source, delivery_id: ctx.deliveryId, error });
      done(unavailable());
    },
  );
}

/** `claimed`: the server holds a claim on `key` (released if the handlers fail); else the ticket handler checks the id. */
function handOff(
  outcome: SourceOutcome,
  ctx: Omit<DeliveryContext, "signal" | "deliveryKey">,
  key: string | undefined,
  claimed: boolean,
  deps: DeliverDeps,
  done: DeliverCallback,
): void {
  // No closure below refers to the outcome: a closure that outlives the
  // request (a promise reaction, a deadline) would keep the parsed event alive.
  let reply = acceptedReply(outcome);
  const full = new HandOffContext(ctx.source, ctx.deliveryId, key);
  let timedOut = false;
  let lateSettled: (() => void) | undefined;
  let deadline: ReturnType<DeadlineQueue["add"]> | undefined;
  const settle = (error: WebhookError | undefined, answer: WebhookReply = reply) => {
    if (timedOut) {
      lateSettled?.();
      return;
    }
    if (deadline !== undefined) deps.deadlines.cancel(deadline);
    if (error === undefined) done(undefined, answer);
    else done(error);
  };
  const storeFailed = (error: unknown) => {
    deps.logger.error("dedupe store failed", { source: ctx.source, delivery_id: ctx.deliveryId, error });
    settle(unavailable());
  };
  const succeeded = (result: HandlerResult) => {
    if (result !== undefined && "reply" in result) reply = result.reply; // a review handler's: accepted, or ignored and why
    if (result?.seen === "duplicate") settle(undefined, DUPLICATE);
    else if (result?.seen === "in_flight") settle(inProgress());
    // A handler that marked the id with its tickets has committed it already: a second write could only be separated from them.
    else if (key === undefined || result?.deliveryCommitted === true) settle(undefined);
    else
      then(
        () => deps.dedupe.commit(key),
        () => settle(undefined),
        storeFailed,
      );
  };
  const failed = (error: unknown) => {
    deps.logger.error("handler failed", { source: ctx.source, delivery_id: ctx.deliveryId, error });
    // Released, the id lets the sender's retry through. Unclaimed, it is as it was: the handler's transaction failed.
    if (key === undefined || !claimed) settle(unavailable());
    else
      then(
        () => deps.dedupe.release(key),
        () => settle(unavailable()),
        storeFailed,
      );
  };

  let work: HandlerResult | PromiseLike<HandlerResult>;
  try {
    work = runHandlers(outcome, full, deps);
  } catch (error) {
    failed(error);
    return;
  }
  if (!isThenable(work)) {
    succeeded(work);
    return;
  }
  deadline = deps.deadlines.add(() => {
    timedOut = true;
    full.timeOut();
    deps.logger.error("handler timed out", {
      source: ctx.source,
      delivery_id: ctx.deliveryId,
      timeout_ms: deps.deadlines.ms,
    });
    // The hand-off goes on without its request; shutdown waits for it.
    const tracked = new Promise<void>((resolve) => (lateSettled = resolve));
    deps.pending.add(tracked);
    void tracked.then(() => deps.pending.delete(tracked));
    done(unavailable());
  });
  work.then(succeeded, failed);
}
