import { NotFoundError } from "../errors.js";
import type { ChannelSlot } from "./channel-slots.js";
import { describeSource } from "./channel-source.js";
import { CHECK_TICKET, checkMessage } from "./check-notification.js";
import { type Delivery, type DeliveryContext, deliver } from "./deliver.js";
import type { ChannelStatus, CheckResult, NotifierHealth } from "./notifier-types.js";

/** Sends the check message to every channel, or to the one labelled `label`, and reports how each call went. */
export async function checkChannels(
  slots: readonly ChannelSlot[],
  label: string | undefined,
  context: DeliveryContext,
  signal: AbortSignal,
): Promise<CheckResult[]> {
  const targets = label === undefined ? slots : slots.filter((s) => s.entry.label === label);
  if (targets.length === 0 && label !== undefined) {
    throw new NotFoundError(`no notification channel is labelled "${label}"`, {
      hint: `configured channels: ${slots.map((s) => s.entry.label).join(", ") || "none"}`,
    });
  }
  const message = checkMessage();
  const delivery: Delivery = {
    operation: "notify",
    runId: `check-${Date.now()}`,
    ticketId: CHECK_TICKET.id,
    invoke: (channel, o) => channel.notify(message, CHECK_TICKET, o),
  };
  return Promise.all(
    targets.map(async (slot): Promise<CheckResult> => {
      const report = await deliver(slot, delivery, context, signal);
      const error = report.error && { code: report.error.code, message: report.error.message, hint: report.error.hint };
      return {
        label: slot.entry.label,
        backend: slot.entry.backend,
        ok: report.outcome === "ok",
        durationMs: Math.round(report.durationMs),
        ...(error ? { error } : {}),
      };
    }),
  );
}

/** The notifier's health: degraded while any channel is unhealthy. */
export function healthOf(slots: readonly ChannelSlot[]): NotifierHealth {
  const channels: NotifierHealth["channels"] = {};
  for (const slot of slots) {
    const { healthy, consecutiveFailures, lastFailure, onProbation } = slot.health;
    channels[slot.entry.label] = {
      healthy,
      state: slot.supervised.state,
      consecutiveFailures,
      lastFailure,
      probing: slot.prober?.probing ?? false,
      onProbation,
    };
  }
  return { status: slots.every((s) => s.health.healthy) ? "ok" : "degraded", channels };
}

/** What `errand channels list` shows of one channel. */
export function statusOf(slot: ChannelSlot): ChannelStatus {
  const { supervised, health, entry, source } = slot;
  return {
    label: entry.label,
    backend: entry.backend,
    source: {
      kind: source.kind,
      where: describeSource(source),
      ...(source.kind === "command" ? {} : { packageName: source.packageName }),
    },
    state: supervised.state,
    downReason: supervised.state === "down" ? supervised.downReason : undefined,
    name: supervised.identity?.name,
    version: supervised.identity?.version,
    interfaceVersion: supervised.identity?.interfaceVersion,
    pid: supervised.state === "up" ? supervised.pid : undefined,
    healthy: health.healthy,
    probing: slot.prober?.probing ?? false,
    onProbation: health.onProbation,
    consecutiveFailures: health.consecutiveFailures,
    restarts: supervised.restarts,
    lastFailure: health.lastFailure,
    lastSuccessAt: health.lastSuccessAt,
  };
}
