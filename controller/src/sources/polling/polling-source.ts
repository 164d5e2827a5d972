import type { Logger } from "@errand/channel-sdk";
import { Counter, type Registry } from "prom-client";
import { ControllerError, ControllerErrorCode } from "../../errors.js";
import type { SourceHealth, TicketSink, TicketSource } from "../../intake/ticket-source.js";
import type { RunEvent, RunObserver } from "../../runs/run-event.js";
import { TicketSourceError } from "../ticket-source-error.js";
import type { PollAdapter, PollContext } from "./poll-adapter.js";
import { createPollStatus, type PollSnapshot, type PollStatus } from "./poll-status.js";

/** Options of {@link createPollingSource}. */
export interface PollingSourceOptions {
  adapter: PollAdapter;
  /** `ticketing.poll_interval` in ms (30 s by default). */
  intervalMs: number;
  logger: Logger;
  registry: Registry;
  /** Longest wait between polls while the API keeps failing; default 5 minutes. */
  maxBackoffMs?: number;
}

/** A polled ticket source that also writes progress back to where the tickets live. */
export type PollingSource = TicketSource & {
  readonly observer: RunObserver;
  pollNow(): Promise<void>;
  /** How its polls went and when the next one is due (the console's sources page). */
  pollState(): PollState;
};

/** A poller's state as data: its recent polls, the next one, and the vendor's rate limit. Times in epoch ms. */
export interface PollState extends PollSnapshot {
  /** When the next poll is due; undefined while one runs or before the source started. */
  nextPollAt: number | undefined;
  /** Until when the vendor's rate limit holds requests back; undefined when none does or the adapter cannot tell. */
  limitedUntil: number | undefined;
}

/**
 * Polls the adapter every interval and hands the issues its rules pick up
 * to the sink, where ticket identity (source, id) keeps a re-poll from
 * starting a second run. A failing API is retried with doubling waits up to
 * `maxBackoffMs`, and the source recovers on its own: it never stops the
 * controller. Write-back runs on the loop's run events.
 */
export function createPollingSource(options: PollingSourceOptions): PollingSource {
  const { adapter, registry } = options;
  const logger = options.logger.child({ source: adapter.backend });
  const status = createPollStatus(options.intervalMs, options.maxBackoffMs ?? 5 * 60_000);
  const stop = new AbortController();
  const ctx: PollContext = { signal: stop.signal, logger };
  const { polls, picked } = pollCounters(registry);
  let sink: TicketSink | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let prepared = false;

  const pollOnce = async () => {
    if (sink === undefined || stop.signal.aborted) return;
    try {
      if (!prepared) {
        await adapter.prepare(ctx);
        prepared = true;
      }
      await pickUp(adapter, ctx, sink, picked);
      polls.inc({ source: adapter.backend, outcome: "ok" });
      status.succeeded(logger);
    } catch (error) {
      if (stop.signal.aborted) return;
      status.failed(error);
      polls.inc({ source: adapter.backend, outcome: "error" });
      logger.error("poll failed; trying again later", {
        error,
        failures: status.failures,
        next_in_ms: status.nextDelay(),
      });
    }
  };

  let nextPollAt: number | undefined;
  const schedule = () => {
    if (stop.signal.aborted) return;
    const delay = status.nextDelay();
    nextPollAt = Date.now() + delay;
    timer = setTimeout(() => {
      nextPollAt = undefined;
      running = pollOnce().finally(schedule);
    }, delay);
  };

  return {
    name: adapter.backend,
    async start(target) {
      try {
        await adapter.prepare(ctx);
        prepared = true;
      } catch (error) {
        // A configuration the workspace refuses is the operator's to fix: a start-up error. An API that is down is
        // not: the source starts failing and prepares again with the polls' back-off.
        if (isOperatorsToFix(error)) throw error;
        status.failed(error);
        logger.error("ticket source unreachable at start; trying again later", {
          error,
          next_in_ms: status.nextDelay(),
        });
      }
      sink = target;
      if (prepared) running = pollOnce().finally(schedule);
      else schedule();
    },
    async stop() {
      stop.abort(new Error("controller shutting down"));
      clearTimeout(timer);
      await running?.catch(() => {});
    },
    health(): SourceHealth {
      if (sink === undefined) return { ready: false, detail: "not started" };
      // A source that fails keeps the controller ready: webhooks and running work go on, the source catches up.
      return { ready: true, detail: status.detail() };
    },
    pollNow: pollOnce,
    pollState: () => pollStateOf(status, nextPollAt, adapter),
    observer: createWriteBack(adapter, ctx, registry),
  };
}

function pollStateOf(status: PollStatus, nextPollAt: number | undefined, adapter: PollAdapter): PollState {
  const limit = adapter.limitedUntil?.();
  return { ...status.snapshot(), nextPollAt, limitedUntil: limit && limit > Date.now() ? limit : undefined };
}

/** The source's poll metrics: polls by outcome, and tickets handed on by what the store made of them. */
function pollCounters(registry: Registry): { polls: Counter; picked: Counter } {
  const polls = new Counter({
    name: "errand_source_polls_total",
    help: "Polls of a ticket source, by outcome",
    labelNames: ["source", "outcome"],
    registers: [registry],
  });
  const picked = new Counter({
    name: "errand_source_tickets_total",
    help: "Tickets a poll handed on, by what the store made of them",
    labelNames: ["source", "outcome"],
    registers: [registry],
  });
  return { polls, picked };
}

/** Polls once and hands the tickets its rules pick up to the sink. */
async function pickUp(adapter: PollAdapter, ctx: PollContext, sink: TicketSink, picked: Counter): Promise<void> {
  const candidates = await adapter.poll(ctx);
  const take = candidates.filter((c) => c.skip === undefined).map((c) => c.ticket);
  const outcomes = take.length === 0 ? [] : await sink.accept(take);
  for (const o of outcomes) picked.inc({ source: adapter.backend, outcome: o.kind });
  const queued = outcomes.filter((o) => o.kind === "queued").length;
  if (queued > 0) ctx.logger.info("poll picked up tickets", { queued, seen: candidates.length });
}

/** The observer that writes a run's start and end back to its ticket, when the ticket came from this source. */
function createWriteBack(adapter: PollAdapter, ctx: PollContext, registry: Registry): RunObserver {
  const writeBackErrors = new Counter({
    name: "errand_source_writeback_errors_total",
    help: "Failed write-backs to a ticket source",
    labelNames: ["source", "step"],
    registers: [registry],
  });
  const writeBack = async (event: RunEvent) => {
    if (event.ticket.source !== adapter.backend || event.type === "progress") return;
    const step = event.type === "started" ? "picked_up" : "finished";
    try {
      if (event.type === "started") await adapter.pickedUp(event.ticket, event.run, ctx);
      else await adapter.finished(event.ticket, event.run, event.result, ctx);
    } catch (error) {
      // Logged and counted, never retried here: a repeated comment would be worse than a missing one.
      writeBackErrors.inc({ source: adapter.backend, step });
      ctx.logger.error("write-back to the ticket source failed", {
        step,
        ticket: event.ticket.id,
        run_id: event.run.id,
        error,
      });
    }
  };
  return { name: `${adapter.backend}-write-back`, observe: (event) => writeBack(event), close: async () => {} };
}

/** A configuration the workspace refuses, or a token the API refused: nothing that passes by waiting. */
function isOperatorsToFix(error: unknown): boolean {
  if (error instanceof TicketSourceError) return error.failure === "auth";
  return error instanceof ControllerError && error.code === ControllerErrorCode.InvalidConfig;
}
