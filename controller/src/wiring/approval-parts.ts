import type { Logger, Ticket } from "@errand/channel-sdk";
import { createApprovalMessageUpdater } from "../approvals/approval-message-updater.js";
import { compileApprovalRules } from "../approvals/approval-rules.js";
import { approvalKey } from "../approvals/approval-signing.js";
import { createApprovalSweeper } from "../approvals/approval-sweeper.js";
import { createApprovals } from "../approvals/approvals.js";
import { createChatAApi } from "../approvals/chat-a-api.js";
import { createChatAApprovals } from "../approvals/chat-a-approvals.js";
import { consoleRunUrl, waitingMessage } from "../approvals/waiting-message.js";
import type { ControllerConfig } from "../config/controller-config.js";
import type { ObserverDispatch } from "../loop/observer-dispatch.js";
import type { ApprovalSweep, Approvals } from "../runs/approvals-port.js";
import type { Store } from "../store/store.js";
import type { ApprovalHandler } from "../webhook/handlers.js";

/** What the approval flow adds to the controller. */
export interface ApprovalParts {
  /** Deciding: the CLI, chat A's buttons and the console go through it. */
  approvals: Approvals;
  /** The loop's part: timeouts and announcements. */
  sweep: ApprovalSweep;
  /** For the intake: true when a new ticket's run waits; undefined when no rule holds runs. */
  needsApproval: ((ticket: Ticket) => boolean) | undefined;
  /** For the webhook intake: chat A's Approve and Reject buttons; undefined without a chat_a channel and a key. */
  onApprovals: ApprovalHandler | undefined;
}

/** Options of {@link createApprovalParts}. */
export interface ApprovalPartsOptions {
  config: ControllerConfig;
  /** Every secret the config names, resolved. */
  secrets: Readonly<Record<string, string>>;
  store: Store;
  dispatch: ObserverDispatch;
  /** The ops server's port once it listens (the configured one may be 0). */
  opsPort: () => number;
  /** The console's own port once it listens, when `console.port` gives it one. */
  consolePort?: () => number | undefined;
  logger: Logger;
}

/** The approval flow of `guardrails`: the rules, the deciding port and the loop's sweep. */
export function createApprovalParts(options: ApprovalPartsOptions): ApprovalParts {
  const { config, store, dispatch } = options;
  const logger = options.logger.child({ component: "approvals" });
  const g = config.guardrails;
  const approvals = createApprovals({ store, approvers: g.approvers, logger });
  // The console is on the ops server's port unless `console.port` gives it one of its own; no link when it is off.
  const own = config.console.port;
  const consoleUrl = (runId: string): string | undefined => {
    if (!config.console.enabled) return undefined;
    if (own === undefined) return consoleRunUrl(config.ops.host, options.opsPort(), runId);
    return consoleRunUrl(config.console.host, options.consolePort?.() ?? own, runId);
  };
  const chatA = createChatAPart(options, approvals, consoleUrl, logger);
  return {
    approvals,
    onApprovals: chatA?.onApprovals,
    needsApproval: compileApprovalRules(g, config.engines.default),
    sweep: createApprovalSweeper({
      store,
      timeoutMs: g.approvalTimeoutMs,
      logger,
      ...(chatA ? { updateMessages: chatA.updater.updateDecided } : {}),
      async announce(run, ticket) {
        const url = consoleUrl(run.id);
        logger.info("run awaiting approval", { run_id: run.id, console: url });
        await Promise.allSettled([
          dispatch.dispatch({ type: "progress", run, ticket, message: waitingMessage(run, ticket, url) }),
          chatA?.announce(run, ticket),
        ]);
      },
    }),
  };
}

/**
 * Chat A's interactive approval messages, when the config has a chat_a
 * channel (where they are posted, with its token) and a key for the
 * buttons (`guardrails.approval_signing_secret`, or chat A's webhook secret).
 */
function createChatAPart(
  { config, secrets, store }: ApprovalPartsOptions,
  approvals: Approvals,
  consoleUrl: (runId: string) => string | undefined,
  logger: Logger,
) {
  const entry = config.notifications.channels.find((c) => c.backend === "chat_a");
  const named = config.guardrails.approvalSigningSecret;
  const key = approvalKey(named === undefined ? undefined : secrets[named], config.webhook.secrets.chat_a);
  const channel = entry?.config as { channel_id?: unknown; token_secret?: unknown; api_base_url?: unknown } | undefined;
  const token = typeof channel?.token_secret === "string" ? secrets[channel.token_secret] : undefined;
  if (key === undefined || token === undefined || typeof channel?.channel_id !== "string") {
    if (config.guardrails.requireApproval !== undefined)
      logger.info("chat A approval buttons are off: they need a chat_a channel and a key (docs/approvals.md)");
    return undefined;
  }
  const base = typeof channel.api_base_url === "string" ? channel.api_base_url : "https://slack.com/api";
  const api = createChatAApi({ apiBaseUrl: base.replace(/\/+$/, ""), token, channelId: channel.channel_id });
  const updater = createApprovalMessageUpdater({ store, api, logger });
  return { ...createChatAApprovals({ api, key, approvals, store, updater, consoleUrl, logger }), updater };
}
