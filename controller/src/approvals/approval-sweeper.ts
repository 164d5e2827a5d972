import type { Logger, Ticket } from "@errand/channel-sdk";
import type { ApprovalSweep } from "../runs/approvals-port.js";
import { refusedResult } from "../runs/refused-result.js";
import type { TaskRun } from "../runs/task-run.js";
import type { Store } from "../store/store.js";

/** Runs awaiting approval one sweep reads at most; the rest are seen by the next sweeps as these leave. */
const SWEEP_LIMIT = 1000;

/** Options of {@link createApprovalSweeper}. */
export interface ApprovalSweeperOptions {
  store: Store;
  /** `guardrails.approval_timeout`, ms. */
  timeoutMs: number;
  /** Tells people that a run waits (the channels, chat A's buttons). Must not throw. */
  announce(run: TaskRun, ticket: Ticket): Promise<void>;
  /** Updates chat A's messages of the runs whose wait ended (approval-message-updater). Must not throw. */
  updateMessages?(): Promise<void>;
  logger: Logger;
  now?: () => number;
}

/** `24h`, `90m`, `45s`: a timeout as `approval_timeout` is written. */
export function formatTimeout(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s > 0 && s % 3600 === 0) return `${s / 3600}h`;
  if (s > 0 && s % 60 === 0) return `${s / 60}m`;
  return `${s}s`;
}

/**
 * The approvals' part of the loop. Each sweep moves runs that waited
 * longer than the timeout to Refused (a conditional transition: of several
 * sweeps, or a sweep and a decision, one wins) and announces each waiting
 * run once: the store's mark ({@link Store.claimApprovalAnnouncement}) lets
 * one process announce it, once, so a restarted controller (or a second
 * one on the same database) does not post the message again. Then it updates
 * chat A's messages of the runs whose wait ended, however it ended. One
 * sweep runs at a time.
 */
export function createApprovalSweeper(options: ApprovalSweeperOptions): ApprovalSweep {
  const { store, logger } = options;
  const now = options.now ?? Date.now;
  const announced = new Set<string>();
  const reason = `approval timed out after ${formatTimeout(options.timeoutMs)}`;
  let running: Promise<void> | undefined;

  const expire = async (run: TaskRun) => {
    const moved = await store.transition({
      runId: run.id,
      from: ["AwaitingApproval"],
      to: "Refused",
      reason,
      patch: { result: refusedResult(reason) },
    });
    if (moved) logger.info("run refused: its approval timed out", { run_id: run.id, reason });
  };
  const announce = async (run: TaskRun) => {
    const mine = await store.claimApprovalAnnouncement(run.id);
    // Remembered once the store answered (a failed write is tried again next sweep), so later sweeps skip the write.
    announced.add(run.id);
    if (!mine) return;
    const ticket = await store.getTicket(run.ticket);
    if (ticket !== undefined) void options.announce(run, ticket);
  };
  const pass = async () => {
    try {
      const waiting = await store.listRuns({ states: ["AwaitingApproval"], limit: SWEEP_LIMIT });
      const at = now();
      for (const run of waiting) {
        if (at - run.createdAt >= options.timeoutMs) await expire(run);
        else if (!announced.has(run.id)) await announce(run);
      }
      const still = new Set(waiting.map((r) => r.id));
      for (const id of announced) if (!still.has(id)) announced.delete(id);
    } catch (error) {
      logger.warn("could not check the runs awaiting approval; trying again shortly", { error });
    }
    // After the timeouts: a wait this sweep ended has its message updated by it.
    await options.updateMessages?.();
  };
  return {
    sweep() {
      running ??= pass().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}
