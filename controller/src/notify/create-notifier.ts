import { setMaxListeners } from "node:events";
import { type Ticket, toChannelError } from "@errand/channel-sdk";
import { createMaskingLogger } from "@errand/channel-sdk/host";
import { NotFoundError } from "../errors.js";
import type { RunEvent, RunObserver } from "../runs/run-event.js";
import { createBackoff } from "./backoff.js";
import { createChannelLanes } from "./channel-lanes.js";
import { ChannelSetupError, type ChannelSetupProblem } from "./channel-setup-error.js";
import { type ChannelSlot, createChannelSlots } from "./channel-slots.js";
import { describeSource } from "./channel-source.js";
import { CHECK_TICKET, checkMessage } from "./check-notification.js";
import { type Delivery, deliver } from "./deliver.js";
import { describeEntry } from "./describe-entry.js";
import { linkSignals } from "./linked-signal.js";
import { createNotifierMetrics } from "./notifier-metrics.js";
import { checkNotifierOptions } from "./notifier-options.js";
import type { ChannelStatus, CheckResult, Notifier, NotifierHealth, NotifierOptions } from "./notifier-types.js";
import { createProgressGate } from "./progress-gate.js";

/**
 * Creates the notifier: every configured channel told about every run
 * event (spec 1.3-1.5, 6.2, 7), each channel through its own ordered queue
 * per run, each call bounded by `callTimeoutMs` on its own, never retried,
 * never able to hold the loop or another channel. Plugins are started once
 * by `start()` and restarted after a crash.
 */
export function createNotifier(options: NotifierOptions): Notifier {
  const settings = checkNotifierOptions(options);
  const logger = createMaskingLogger(options.logger.child({ component: "notifier" }), Object.values(options.secrets));
  const metrics = createNotifierMetrics(options.registry);
  const shutdown = new AbortController();
  const { slots, problems } = createChannelSlots({
    channels: options.channels,
    secrets: options.secrets,
    logger,
    metrics,
    backoff: createBackoff(settings.backoff),
    unhealthyAfter: settings.unhealthyAfter,
    startTimeoutMs: settings.startTimeoutMs,
    probe: { intervalMs: settings.probeIntervalMs, timeoutMs: settings.callTimeoutMs },
    signal: shutdown.signal,
    pluginsDir: options.pluginsDir,
    controllerDir: options.controllerDir,
  });
  const context = { timeoutMs: settings.callTimeoutMs, metrics };
  const lanes = createChannelLanes(slots, context);
  let starting: Promise<void> | undefined;
  let closing: Promise<void> | undefined;

  // Every delivery in flight listens on it (each run's event, each channel): not a leak.
  setMaxListeners(0, shutdown.signal);

  /** Queues `delivery` on every channel; settles once each channel sent it, failed, or dropped it. */
  const send = (delivery: Delivery, signal: AbortSignal): Promise<void> =>
    new Promise<void>((resolve) => {
      const linked = linkSignals([signal, shutdown.signal]);
      const done = () => {
        linked.dispose();
        resolve();
      };
      lanes.push(delivery.runId, { delivery, signal: linked.signal, remaining: slots.length, done });
    });
  const progress = (runId: string, ticket: Ticket, message: string): Delivery => ({
    operation: "notify",
    runId,
    ticketId: ticket.id,
    invoke: (channel, o) => channel.notify(message, ticket, o),
  });
  const gate = createProgressGate<{ ticket: Ticket; message: string }>({
    perMinute: settings.progressPerMinute,
    flush: (runId, held) => {
      if (shutdown.signal.aborted) return;
      // Nobody waits for a held message: close() waits for the lanes instead.
      lanes.push(runId, { delivery: progress(runId, held.ticket, held.message), signal: shutdown.signal, remaining: slots.length, done: undefined });
    },
  });

  // Synchronous up to the queueing, so each channel's lane gets a run's events in the order the loop observed them.
  const observe = (event: RunEvent, signal: AbortSignal): Promise<void> => {
    if (shutdown.signal.aborted || slots.length === 0) return Promise.resolve();
    const { run, ticket } = event;
    if (event.type === "started") {
      const engine = event.engine;
      return send({ operation: "notify_start", runId: run.id, ticketId: ticket.id, invoke: (channel, o) => channel.notifyStart(ticket, { ...o, engine }) }, signal);
    }
    if (event.type === "progress") {
      return gate.offer(run.id, { ticket, message: event.message }) ? send(progress(run.id, ticket, event.message), signal) : Promise.resolve();
    }
    // A message the rate limit still holds back is stale now: it goes nowhere.
    gate.finish(run.id);
    const result = event.result;
    return send({ operation: "notify_complete", runId: run.id, ticketId: ticket.id, invoke: (channel, o) => channel.notifyComplete(ticket, result, o) }, signal);
  };

  const close = (): Promise<void> => {
    closing ??= (async () => {
      shutdown.abort(new Error("the notifier is closing"));
      gate.close();
      // Each channel's close waits for its own start in progress and stops what it started.
      await Promise.allSettled([lanes.idle(), ...slots.map((slot) => slot.supervised.close())]);
    })();
    return closing;
  };

  const observer: RunObserver = { name: "notifications", ordersEvents: true, observe, close };

  return {
    observer,
    start() {
      starting ??= startAll(slots, problems);
      return starting;
    },
    list: () => slots.map(statusOf),
    async check(label) {
      const targets = label === undefined ? slots : slots.filter((s) => s.entry.label === label);
      if (targets.length === 0 && label !== undefined) {
        throw new NotFoundError(`no notification channel is labelled "${label}"`, { hint: `configured channels: ${slots.map((s) => s.entry.label).join(", ") || "none"}` });
      }
      const message = checkMessage();
      const delivery: Delivery = { operation: "notify", runId: `check-${Date.now()}`, ticketId: CHECK_TICKET.id, invoke: (channel, o) => channel.notify(message, CHECK_TICKET, o) };
      return Promise.all(
        targets.map(async (slot): Promise<CheckResult> => {
          const report = await deliver(slot, delivery, context, shutdown.signal);
          const error = report.error && { code: report.error.code, message: report.error.message, hint: report.error.hint };
          return { label: slot.entry.label, backend: slot.entry.backend, ok: report.outcome === "ok", durationMs: Math.round(report.durationMs), ...(error ? { error } : {}) };
        }),
      );
    },
    health() {
      const channels: NotifierHealth["channels"] = {};
      for (const slot of slots) {
        const { healthy, consecutiveFailures, lastFailure, onProbation } = slot.health;
        channels[slot.entry.label] = { healthy, state: slot.supervised.state, consecutiveFailures, lastFailure, probing: slot.prober?.probing ?? false, onProbation };
      }
      return { status: slots.every((s) => s.health.healthy) ? "ok" : "degraded", channels };
    },
    close,
  };
}

/** Starts every channel in parallel; configuration problems (all of them) stop everything and reject. */
async function startAll(slots: ChannelSlot[], resolveProblems: ChannelSetupProblem[]): Promise<void> {
  const problems = [...resolveProblems];
  if (problems.length === 0) {
    const outcomes = await Promise.allSettled(slots.map((slot) => slot.supervised.start()));
    outcomes.forEach((outcome, i) => {
      if (outcome.status === "fulfilled") return;
      const error = toChannelError(outcome.reason);
      const entry = slots[i]!.entry;
      problems.push({ entry: describeEntry(entry), label: entry.label, message: error.message, fix: error.hint ?? "check the entry's config against the channel's documentation", channelCode: error.code });
    });
  }
  if (problems.length === 0) return;
  await Promise.allSettled(slots.map((slot) => slot.supervised.close()));
  throw new ChannelSetupError(problems.sort((a, b) => a.entry.localeCompare(b.entry, "en", { numeric: true })));
}

function statusOf(slot: ChannelSlot): ChannelStatus {
  const { supervised, health, entry, source } = slot;
  return {
    label: entry.label,
    backend: entry.backend,
    source: { kind: source.kind, where: describeSource(source), ...(source.kind === "command" ? {} : { packageName: source.packageName }) },
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
