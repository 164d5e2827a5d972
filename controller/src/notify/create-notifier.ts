import { setMaxListeners } from "node:events";
import { type Logger, type Ticket, toChannelError } from "@errand/channel-sdk";
import { createMaskingLogger } from "@errand/channel-sdk/host";
import type { RunEvent, RunObserver } from "../runs/run-event.js";
import { createBackoff } from "./backoff.js";
import { trackCalls } from "./call-tracker.js";
import { createChannelLanes } from "./channel-lanes.js";
import { ChannelSetupError, type ChannelSetupProblem } from "./channel-setup-error.js";
import { type ChannelSlot, createChannelSlots, type SlotOptions } from "./channel-slots.js";
import type { Delivery } from "./deliver.js";
import { describeEntry } from "./describe-entry.js";
import { createNotifierMetrics, type NotifierMetrics } from "./notifier-metrics.js";
import { checkNotifierOptions, type NotifierSettings } from "./notifier-options.js";
import { checkChannels, healthOf, statusOf } from "./notifier-status.js";
import type { Notifier, NotifierOptions } from "./notifier-types.js";
import { createProgressGate } from "./progress-gate.js";
import { completeDelivery, progressDelivery, startDelivery } from "./run-deliveries.js";

/**
 * Creates the notifier: every configured channel told about every run
 * event, each channel through its own ordered queue
 * per run, each call bounded by `callTimeoutMs` on its own, never retried,
 * never able to hold the loop or another channel. Plugins are started once
 * by `start()` and restarted after a crash.
 */
export function createNotifier(options: NotifierOptions): Notifier {
  const settings = checkNotifierOptions(options);
  const logger = createMaskingLogger(options.logger.child({ component: "notifier" }), Object.values(options.secrets));
  const metrics = createNotifierMetrics(options.registry);
  const shutdown = new AbortController();
  const { slots, problems } = createChannelSlots(slotOptions(options, settings, logger, metrics, shutdown.signal));
  const context = { timeoutMs: settings.callTimeoutMs, metrics, shutdown: trackCalls(shutdown.signal) };
  const lanes = createChannelLanes(slots, context);
  let starting: Promise<void> | undefined;
  let closing: Promise<void> | undefined;

  // Each held progress message sent later, and each channel's supervision, listens on it: not a leak.
  setMaxListeners(0, shutdown.signal);

  /**
   * Queues `delivery` on every channel; settles once each channel sent it, failed, or dropped it. Each call is
   * cancelled by `signal` or by the shutdown (the context's tracker): no signal is made per event.
   */
  const send = (delivery: Delivery, signal: AbortSignal): Promise<void> =>
    new Promise<void>((resolve) => {
      lanes.push(delivery.runId, { delivery, signal, remaining: slots.length, done: resolve });
    });
  const gate = createProgressGate<{ ticket: Ticket; message: string }>({
    perMinute: settings.progressPerMinute,
    flush: (runId, held) => {
      if (shutdown.signal.aborted) return;
      // Nobody waits for a held message: close() waits for the lanes instead.
      lanes.push(runId, {
        delivery: progressDelivery(runId, held.ticket, held.message),
        signal: shutdown.signal,
        remaining: slots.length,
        done: undefined,
      });
    },
  });

  // Synchronous up to the queueing, so each channel's lane gets a run's events in the order the loop observed them.
  const observe = (event: RunEvent, signal: AbortSignal): Promise<void> => {
    if (shutdown.signal.aborted || slots.length === 0) return Promise.resolve();
    if (event.type === "started") return send(startDelivery(event), signal);
    if (event.type === "progress") {
      const { run, ticket, message } = event;
      return gate.offer(run.id, { ticket, message })
        ? send(progressDelivery(run.id, ticket, message), signal)
        : Promise.resolve();
    }
    // A message the rate limit still holds back is stale now: it goes nowhere.
    gate.finish(event.run.id);
    return send(completeDelivery(event), signal);
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
    check: (label) => checkChannels(slots, label, context, shutdown.signal),
    health: () => healthOf(slots),
    close,
  };
}

/** The channels' setup: each supervised with the notifier's back-off, health rule and probes. */
function slotOptions(
  options: NotifierOptions,
  settings: NotifierSettings,
  logger: Logger,
  metrics: NotifierMetrics,
  signal: AbortSignal,
): SlotOptions {
  return {
    channels: options.channels,
    secrets: options.secrets,
    logger,
    metrics,
    backoff: createBackoff(settings.backoff),
    unhealthyAfter: settings.unhealthyAfter,
    startTimeoutMs: settings.startTimeoutMs,
    probe: { intervalMs: settings.probeIntervalMs, timeoutMs: settings.callTimeoutMs },
    signal,
    pluginsDir: options.pluginsDir,
    controllerDir: options.controllerDir,
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
      problems.push({
        entry: describeEntry(entry),
        label: entry.label,
        message: error.message,
        fix: error.hint ?? "check the entry's config against the channel's documentation",
        channelCode: error.code,
      });
    });
  }
  if (problems.length === 0) return;
  await Promise.allSettled(slots.map((slot) => slot.supervised.close()));
  throw new ChannelSetupError(problems.sort((a, b) => a.entry.localeCompare(b.entry, "en", { numeric: true })));
}
