import type { Logger } from "@errand/channel-sdk";
import type { DedupeStore } from "./dedupe/dedupe-store.js";
import { WebhookError, WebhookErrorCode } from "./errors.js";
import type { ApprovalHandler, DeliveryContext, TicketHandler } from "./handlers.js";
import type { WebhookReply } from "./responses.js";
import type { SourceOutcome } from "./sources/source.js";

/** What {@link deliver} needs from the server. */
export interface DeliverDeps {
  onTickets: TicketHandler;
  onApprovals: ApprovalHandler | undefined;
  dedupe: DedupeStore;
  handlerTimeoutMs: number;
  logger: Logger;
  /** Settling hand-offs, awaited on shutdown. */
  pending: Set<Promise<unknown>>;
}

const unavailable = () =>
  new WebhookError(503, WebhookErrorCode.Unavailable, "the event could not be handed on; retry later", { "retry-after": "5" });

async function runHandlers(outcome: SourceOutcome, ctx: DeliveryContext, deps: DeliverDeps): Promise<void> {
  if (outcome.tickets.length > 0) await deps.onTickets(outcome.tickets, ctx);
  if (outcome.approvals.length > 0) await deps.onApprovals?.(outcome.approvals, ctx);
}

/**
 * Hands a mapped delivery to the handlers, once per delivery id. Resolves
 * with the 200 reply; rejects with a 503 {@link WebhookError} when the
 * handler failed or ran out of time. A hand-off that outlives its timeout
 * keeps its dedupe claim until it settles, so a retry that arrives meanwhile
 * is told to come back later rather than handled twice.
 */
export async function deliver(
  outcome: SourceOutcome,
  ctx: Omit<DeliveryContext, "signal">,
  deps: DeliverDeps,
): Promise<WebhookReply> {
  if (outcome.approvals.length > 0 && !deps.onApprovals) {
    deps.logger.warn("approval callback dropped: no approval handler is configured", { source: ctx.source, delivery_id: ctx.deliveryId });
    return { status: "ignored", reason: "no approval handler is configured" };
  }
  const key = ctx.deliveryId === undefined ? undefined : `${ctx.source}:${ctx.deliveryId}`;
  if (key !== undefined) {
    const claim = await deps.dedupe.claim(key);
    if (claim === "duplicate") return { status: "duplicate" };
    if (claim === "in_flight") {
      throw new WebhookError(503, WebhookErrorCode.DeliveryInProgress, "this delivery id is being handled; retry later", { "retry-after": "1" });
    }
  }
  // The signal is made on first use: most handlers never look at it, and an
  // AbortController per request is measurable on the hot path.
  let controller: AbortController | undefined;
  let timedOut = false;
  const full: DeliveryContext = {
    ...ctx,
    get signal() {
      controller ??= new AbortController();
      if (timedOut && !controller.signal.aborted) controller.abort(new Error("webhook handler timed out"));
      return controller.signal;
    },
  };
  const work = runHandlers(outcome, full, deps);
  const settled = work.then(
    () => (key === undefined ? undefined : deps.dedupe.commit(key)),
    (error: unknown) => {
      deps.logger.error("handler failed", { source: ctx.source, delivery_id: ctx.deliveryId, error });
      return key === undefined ? undefined : deps.dedupe.release(key);
    },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        timedOut = true;
        controller?.abort(new Error("webhook handler timed out"));
        deps.logger.error("handler timed out", { source: ctx.source, delivery_id: ctx.deliveryId, timeout_ms: deps.handlerTimeoutMs });
        // The hand-off goes on without its request; shutdown waits for it.
        const tracked = settled.catch((error: unknown) => deps.logger.error("dedupe store failed", { error }));
        deps.pending.add(tracked);
        void tracked.finally(() => deps.pending.delete(tracked));
        reject(unavailable());
      }, deps.handlerTimeoutMs);
      settled.then(
        () => {
          clearTimeout(timer);
          work.then(resolve, () => reject(unavailable()));
        },
        () => {
          clearTimeout(timer);
          reject(unavailable());
        },
      );
    });
  } catch (error) {
    throw error instanceof WebhookError ? error : unavailable();
  }
  const reply: WebhookReply = { status: "accepted", tickets: outcome.tickets.map((t) => t.id) };
  if (outcome.approvals.length > 0) reply.approvals = outcome.approvals.length;
  return reply;
}
