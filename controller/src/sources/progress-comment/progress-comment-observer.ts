import type { Logger, Ticket } from "@errand/channel-sdk";
import { Counter, type Registry } from "prom-client";
import type { RunEvent, RunObserver } from "../../runs/run-event.js";
import { type CommentThrottle, createCommentThrottle, systemClock, type ThrottleClock } from "./comment-throttle.js";
import { addStep, finalText, type ProgressView, runningText } from "./progress-text.js";

/** Where a ticket's progress comment lives: a vendor's comments API. */
export interface CommentTarget {
  /** The vendor, for logs and metrics (e.g. codehost_a). */
  readonly name: string;
  /** True when its API edits comments; false: a comment when the run starts and another when it ends. */
  readonly editable: boolean;
  /** True when the host renders HTML in comments (a folded summary, a hidden marker). */
  readonly html: boolean;
  /** True when the ticket is one this target comments on. */
  accepts(ticket: Ticket): boolean;
  /** Creates a comment on the ticket; resolves with its id. */
  create(ticket: Ticket, body: string, signal: AbortSignal): Promise<string>;
  /** Replaces the text of the comment `id`. */
  update(ticket: Ticket, id: string, body: string, signal: AbortSignal): Promise<void>;
}

/** Options of {@link createProgressCommentObserver}. */
export interface ProgressCommentOptions {
  target: CommentTarget;
  logger: Logger;
  registry: Registry;
  /** Least time between two writes to one comment; default 10 s. */
  intervalMs?: number;
  /** Longest one write may take; default 30 s. */
  requestTimeoutMs?: number;
  clock?: ThrottleClock;
}

interface RunComment {
  ticket: Ticket;
  view: ProgressView;
  id?: string;
  throttle?: CommentThrottle;
}

const ERRORS = "errand_progress_comment_errors_total";

/**
 * Keeps one comment per run on its ticket, like claude-code-action's
 * tracking comment: created when the run starts, edited as progress arrives
 * (at most once per interval, the latest text winning), and ending with the
 * outcome and the pull request link. The text is built only from the run's
 * events, which have passed the scrubbing backend, so no secret reaches it.
 * A failed write is logged and counted, never retried and never fails the run.
 */
export function createProgressCommentObserver(options: ProgressCommentOptions): RunObserver {
  const { target, logger } = options;
  const clock = options.clock ?? systemClock;
  const intervalMs = options.intervalMs ?? 10_000;
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const errors = errorCounter(options.registry);
  const shutdown = new AbortController();
  const runs = new Map<string, RunComment>();
  const finishing = new Set<CommentThrottle>();

  /** Runs one write with its own time limit; a failure is logged and counted, never thrown. */
  const attempt = async <T>(step: string, c: RunComment, write: (signal: AbortSignal) => Promise<T>) => {
    try {
      return await write(AbortSignal.any([shutdown.signal, AbortSignal.timeout(timeoutMs)]));
    } catch (error) {
      errors.inc({ target: target.name, step });
      logger.error("progress comment failed", {
        target: target.name,
        step,
        ticket: c.ticket.id,
        run_id: c.view.runId,
        error,
      });
      return undefined;
    }
  };
  const start = async (c: RunComment) => {
    c.id = await attempt("create", c, (signal) => target.create(c.ticket, runningText(c.view), signal));
    if (c.id === undefined || !target.editable) return;
    const id = c.id;
    c.throttle = createCommentThrottle({
      intervalMs,
      clock,
      lastWriteAt: clock.now(),
      write: async (text) => {
        await attempt("update", c, (signal) => target.update(c.ticket, id, text, signal));
      },
    });
  };
  const finish = async (event: Extract<RunEvent, { type: "finished" }>) => {
    const c = runs.get(event.run.id) ?? comment(target, event.ticket, event.run.id, event.run.engine);
    runs.delete(event.run.id);
    const text = finalText(c.view, event.run, event.result);
    const throttle = c.throttle;
    if (throttle === undefined) {
      // No comment to edit (its API cannot, or creating it failed): the outcome gets a comment of its own.
      await attempt("create", c, (signal) => target.create(c.ticket, text, signal));
      return;
    }
    // The final edit waits for its turn after observe returns; close() writes it at once.
    finishing.add(throttle);
    void throttle.finish(text).finally(() => finishing.delete(throttle));
  };

  const observe = async (event: RunEvent): Promise<void> => {
    if (!target.accepts(event.ticket)) return;
    if (event.type === "started") {
      const c = comment(target, event.ticket, event.run.id, event.engine);
      runs.set(event.run.id, c);
      await start(c);
    } else if (event.type === "progress") {
      const c = runs.get(event.run.id);
      if (c === undefined) return;
      addStep(c.view, event.message);
      c.throttle?.offer(runningText(c.view));
    } else {
      await finish(event);
    }
  };
  return {
    name: `${target.name}-progress-comment`,
    observe,
    async close() {
      // Final edits still waiting for their turn are written now: an early edit beats a lost outcome.
      await Promise.all([...finishing].map((t) => t.flush()));
      for (const c of runs.values()) await c.throttle?.flush();
      shutdown.abort(new Error("controller shutting down"));
    },
  };
}

function comment(target: CommentTarget, ticket: Ticket, runId: string, engine: string): RunComment {
  return { ticket, view: { runId, engine, steps: [], html: target.html } };
}

function errorCounter(registry: Registry): Counter {
  const existing = registry.getSingleMetric(ERRORS);
  if (existing instanceof Counter) return existing;
  return new Counter({
    name: ERRORS,
    help: "Failed writes of run progress comments, by target and step",
    labelNames: ["target", "step"],
    registers: [registry],
  });
}
