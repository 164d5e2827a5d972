import type { Logger } from "@errand/channel-sdk";
import type { ApprovalMessageUpdate } from "../store/approval-message.js";
import type { Store } from "../store/store.js";
import type { ChatAApi } from "./chat-a-api.js";
import { endedContent } from "./chat-a-blocks.js";

/** Most messages one sweep updates; the rest wait for the next sweeps. */
const BATCH = 50;
/** How long a taker holds an update: far above chat.update's own bound, so only a taker that died loses it. */
const HOLD_MS = 60_000;
/** Attempts at one message's update before it is given up (and logged so). */
export const MAX_MESSAGE_ATTEMPTS = 5;
/** The first retry's delay; each next one waits twice as long (10 s, 20 s, 40 s, 80 s). */
const RETRY_AFTER_MS = 10_000;

/** Options of {@link createApprovalMessageUpdater}. */
export interface ApprovalMessageUpdaterOptions {
  store: Store;
  api: ChatAApi;
  logger: Logger;
  /** Delay before the first retry of a failed update, ms (doubled at each next one); default 10 s. */
  retryAfterMs?: number;
}

/** Updates chat A's approval messages once their runs left AwaitingApproval. */
export interface ApprovalMessageUpdater {
  /** Updates every decided run's message that is not updated yet (the loop's sweep). Never rejects. */
  updateDecided(): Promise<void>;
  /** Updates this run's message now, unless it is updated or another process holds it. Never rejects. */
  updateRun(runId: string): Promise<void>;
}

/**
 * Creates the updater. Whatever ended the wait (chat A's buttons, the CLI,
 * the console, the timeout, a cancel), the message then says what, who,
 * how and when, and loses its buttons. Each update is taken from the store
 * first ({@link Store.takeApprovalMessageUpdates}) and marked done after,
 * so of every process on the database and across restarts one makes it;
 * a failed call is tried again later, {@link MAX_MESSAGE_ATTEMPTS} times at most.
 */
export function createApprovalMessageUpdater(options: ApprovalMessageUpdaterOptions): ApprovalMessageUpdater {
  const { store, api, logger } = options;
  const retryAfterMs = options.retryAfterMs ?? RETRY_AFTER_MS;

  const update = async (taken: ApprovalMessageUpdate) => {
    const { run, channel, ts, attempt } = taken;
    try {
      const end = (await store.transitions(run.id)).find((t) => t.from === "AwaitingApproval");
      await api.update(channel, ts, endedContent(run, taken.ticket, end));
    } catch (error) {
      const last = attempt >= MAX_MESSAGE_ATTEMPTS;
      const where = { run_id: run.id, channel, ts, attempt, error };
      if (last) logger.error("gave up updating the approval message in chat A: it keeps its buttons", where);
      else logger.warn("could not update the approval message in chat A; trying again later", where);
      await store.finishApprovalMessageUpdate(run.id, false, retryAfterMs * 2 ** (attempt - 1));
      return;
    }
    await store.finishApprovalMessageUpdate(run.id, true);
    logger.info("approval message updated in chat A", { run_id: run.id, channel, ts });
  };
  const updateTaken = async (runId?: string) => {
    try {
      const take = { limit: BATCH, leaseMs: HOLD_MS, maxAttempts: MAX_MESSAGE_ATTEMPTS };
      const taken = await store.takeApprovalMessageUpdates(runId === undefined ? take : { ...take, runId });
      for (const one of taken) await update(one);
    } catch (error) {
      logger.warn("could not update the approval messages in chat A; trying again shortly", { error });
    }
  };
  return { updateDecided: () => updateTaken(), updateRun: (runId) => updateTaken(runId) };
}
