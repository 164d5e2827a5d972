import type { Logger, Ticket } from "@errand/channel-sdk";
import type { ApprovalDecision, Approvals } from "../runs/approvals-port.js";
import type { Actor, TaskRun } from "../runs/task-run.js";
import type { Store } from "../store/store.js";
import type { ApprovalHandler } from "../webhook/handlers.js";
import type { ApprovalCallback } from "../webhook/parsing/source.js";
import type { ApprovalMessageUpdater } from "./approval-message-updater.js";
import { verifyApprovalValue } from "./approval-signing.js";
import type { ChatAApi } from "./chat-a-api.js";
import { APPROVE_ACTION, REJECT_ACTION, waitingContent } from "./chat-a-blocks.js";

/** Options of {@link createChatAApprovals}. */
export interface ChatAApprovalsOptions {
  api: ChatAApi;
  /** The key of the buttons' values (approvalKey). */
  key: Buffer;
  approvals: Approvals;
  store: Store;
  /** Updates a run's message once its wait ended, once across processes. */
  updater: ApprovalMessageUpdater;
  /** Where the console shows a run. */
  /** Undefined when the console is off (`console.enabled: false`). */
  consoleUrl(runId: string): string | undefined;
  logger: Logger;
  now?: () => number;
}

/** Chat A's interactive approval messages: posting them, and the callbacks of their buttons. */
export interface ChatAApprovals {
  /** Posts the approval message of a run that waits. Never rejects (a failure is logged). */
  announce(run: TaskRun, ticket: Ticket): Promise<void>;
  /** The intake's handler of `agent_approval_` callbacks. */
  readonly onApprovals: ApprovalHandler;
}

const DECISIONS: ReadonlyMap<string, ApprovalDecision> = new Map([
  [APPROVE_ACTION, "approve"],
  [REJECT_ACTION, "reject"],
]);

/** Where the clicked message is: the callback's channel and the message's `ts`. */
function messageOf(callback: ApprovalCallback): { channel: string; ts: string } | undefined {
  const p = callback.payload as {
    message?: { ts?: unknown };
    container?: { message_ts?: unknown; channel_id?: unknown };
  };
  const ts = typeof p.message?.ts === "string" ? p.message.ts : p.container?.message_ts;
  const channel = callback.channelId || p.container?.channel_id;
  return typeof ts === "string" && typeof channel === "string" && channel !== "" ? { channel, ts } : undefined;
}

/**
 * Creates the chat A side of approvals. A callback is decided before the
 * intake answers (one store transition: quick), and the message is updated
 * after, so chat A gets its 200 well within 3 s. A value whose HMAC does not
 * bind it to a run and this button is refused and logged, nothing moves.
 */
export function createChatAApprovals(options: ChatAApprovalsOptions): ChatAApprovals {
  const { api, key, approvals, store, logger } = options;
  const now = options.now ?? Date.now;
  const updateLater = (where: { channel: string; ts: string }, content: Parameters<ChatAApi["update"]>[2]) =>
    void api.update(where.channel, where.ts, content).catch((error: unknown) => {
      logger.warn("could not update the approval message in chat A", { error, ...where });
    });

  const handle = async (callback: ApprovalCallback) => {
    const decision = DECISIONS.get(callback.actionId);
    const user = callback.userId || "unknown";
    const runId = decision === undefined ? undefined : verifyApprovalValue(key, callback.value, decision);
    if (decision === undefined || runId === undefined) {
      logger.warn("approval callback refused: its value is not signed for a run and this button", {
        action_id: callback.actionId,
        user_id: user,
      });
      return;
    }
    const actor: Actor = { kind: "chat_a", name: user, from: `chat A channel ${callback.channelId || "unknown"}` };
    const outcome = await approvals.decide(runId, decision, actor);
    const where = messageOf(callback);
    if (where === undefined || (outcome.kind === "refused" && outcome.code === "not_found")) return;
    if (outcome.kind === "decided" || outcome.code === "not_awaiting") {
      // The clicked message is the run's (a message posted by an older errand was not recorded): the
      // updater says how the wait ended, unless that was done already or another process does it.
      await store.recordApprovalMessage(runId, where.channel, where.ts).then(
        () => void options.updater.updateRun(runId),
        (error: unknown) => logger.warn("could not record the clicked approval message", { run_id: runId, error }),
      );
      return;
    }
    const run = outcome.run ?? (await store.getRun(runId));
    const ticket = run && (await store.getTicket(run.ticket));
    // A non-approver's click on a message shown before the run was decided must not bring its buttons back.
    if (run === undefined || ticket === undefined || run.state !== "AwaitingApproval") return;
    const note = `${user} tried to ${decision} at ${new Date(now()).toISOString()}, refused: not in guardrails.approvers`;
    updateLater(where, waitingContent(run, ticket, options.consoleUrl(run.id), key, note));
  };

  return {
    async announce(run, ticket) {
      const posted = await postWithRetries(api, waitingContent(run, ticket, options.consoleUrl(run.id), key), (error) =>
        logger.warn("could not post the approval message to chat A", { run_id: run.id, error }),
      );
      if (posted === undefined) return;
      try {
        await store.recordApprovalMessage(run.id, posted.channel, posted.ts);
      } catch (error) {
        const why =
          "could not record the approval message posted to chat A: it keeps its buttons once the run is decided";
        logger.warn(why, { run_id: run.id, ...posted, error });
      }
    },
    async onApprovals(callbacks) {
      for (const callback of callbacks) await handle(callback);
    },
  };
}

/** Waits before the 2nd, 3rd and 4th attempt of a post: the run is announced once, so a failure is not final at once. */
const POST_RETRY_DELAYS_MS = [1_000, 3_000, 9_000];

/**
 * Posts the approval message, trying again after a failure (chat A busy or
 * slow, a 429): the store's mark says the run was announced, so a post given
 * up here is never tried again. `onFailure` sees each failed attempt.
 */
async function postWithRetries(
  api: ChatAApi,
  content: Parameters<ChatAApi["post"]>[0],
  onFailure: (error: unknown) => void,
): Promise<{ channel: string; ts: string } | undefined> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await api.post(content);
    } catch (error) {
      onFailure(error);
      const delay = POST_RETRY_DELAYS_MS[attempt];
      if (delay === undefined) return undefined;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
