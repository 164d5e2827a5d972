import type { NotifyResult } from "@errand/channel-sdk";
import type { Channel } from "@errand/channel-sdk/host";
import { boundedCall, type CallReport } from "./bounded-call.js";
import type { CallTracker } from "./call-tracker.js";
import type { ChannelSlot } from "./channel-slots.js";
import type { NotifierMetrics, Operation } from "./notifier-metrics.js";

/** Per-call options a channel operation is invoked with. */
export interface InvokeOptions {
  /** The caller's signal, passed to the channel as it is (none for a call only the shutdown cancels). */
  signal: AbortSignal | undefined;
  timeoutMs: number;
  taskRunId: string;
}

/** One notification to send: which operation, for which run, and how to call it on a channel. */
export interface Delivery {
  operation: Operation;
  runId: string;
  ticketId: string;
  invoke: (channel: Channel, options: InvokeOptions) => Promise<NotifyResult>;
}

/** What every delivery shares. */
export interface DeliveryContext {
  timeoutMs: number;
  metrics: NotifierMetrics;
  /** The notifier's shutdown, which cancels every call in flight. */
  shutdown?: CallTracker;
}

/**
 * Sends one notification through one channel, once: bounded, never
 * retried, never rejecting. A channel that is down fails at once. The
 * outcome is counted, a failure logged with the channel's label and the
 * error, and the channel's health updated (a cancelled call says nothing
 * about the channel and leaves its health alone).
 */
export async function deliver(
  slot: ChannelSlot,
  delivery: Delivery,
  context: DeliveryContext,
  signal: AbortSignal | undefined,
): Promise<CallReport> {
  const channel = slot.supervised.current;
  let deliveryId: string | undefined;
  const report: CallReport = channel
    ? await boundedCall(
        async (callSignal) => {
          deliveryId = (
            await delivery.invoke(channel, {
              signal: callSignal,
              timeoutMs: context.timeoutMs,
              taskRunId: delivery.runId,
            })
          ).deliveryId;
        },
        { timeoutMs: context.timeoutMs, signal, tracker: context.shutdown },
      )
    : { outcome: "error", error: slot.supervised.downError(), durationMs: 0 };
  context.metrics.call(slot.entry.label, delivery.operation, report.outcome, report.durationMs / 1000);
  const fields = {
    operation: delivery.operation,
    run_id: delivery.runId,
    ticket_id: delivery.ticketId,
    duration_ms: Math.round(report.durationMs),
  };
  if (report.outcome === "ok") {
    slot.health.succeeded();
    slot.logger.debug("notification delivered", { ...fields, delivery_id: deliveryId });
  } else if (report.outcome === "cancelled") {
    slot.logger.info("notification cancelled", { ...fields, code: report.error?.code });
  } else {
    const error = report.error!;
    slot.health.failed(error.code, error.message);
    slot.logger.warn("notification failed", {
      ...fields,
      outcome: report.outcome,
      code: error.code,
      error_message: error.message,
      hint: error.hint,
    });
  }
  return report;
}
