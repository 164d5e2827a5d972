import type { Logger, Ticket } from "@errand/channel-sdk";
import { compileApprovalRules } from "../approvals/approval-rules.js";
import { createApprovalSweeper } from "../approvals/approval-sweeper.js";
import { createApprovals } from "../approvals/approvals.js";
import { consoleRunUrl, waitingMessage } from "../approvals/waiting-message.js";
import type { ControllerConfig } from "../config/controller-config.js";
import type { ObserverDispatch } from "../loop/observer-dispatch.js";
import type { ApprovalSweep, Approvals } from "../runs/approvals-port.js";
import type { TaskRun } from "../runs/task-run.js";
import type { Store } from "../store/store.js";

/** What the approval flow adds to the controller. */
export interface ApprovalParts {
  /** Deciding: the CLI, chat A's buttons and the console go through it. */
  approvals: Approvals;
  /** The loop's part: timeouts and announcements. */
  sweep: ApprovalSweep;
  /** For the intake: true when a new ticket's run waits; undefined when no rule holds runs. */
  needsApproval: ((ticket: Ticket) => boolean) | undefined;
}

/** Options of {@link createApprovalParts}. */
export interface ApprovalPartsOptions {
  config: ControllerConfig;
  store: Store;
  dispatch: ObserverDispatch;
  /** The ops server's port once it listens (the configured one may be 0). */
  opsPort: () => number;
  /** Extra ways of telling people a run waits (chat A's buttons). Each must not throw. */
  announcers?: readonly ((run: TaskRun, ticket: Ticket, consoleUrl: string) => Promise<void>)[];
  logger: Logger;
}

/** The approval flow of `guardrails`: the rules, the deciding port and the loop's sweep. */
export function createApprovalParts(options: ApprovalPartsOptions): ApprovalParts {
  const { config, store, dispatch } = options;
  const logger = options.logger.child({ component: "approvals" });
  const g = config.guardrails;
  return {
    approvals: createApprovals({ store, approvers: g.approvers, logger }),
    needsApproval: compileApprovalRules(g, config.engines.default),
    sweep: createApprovalSweeper({
      store,
      timeoutMs: g.approvalTimeoutMs,
      logger,
      async announce(run, ticket) {
        const url = consoleRunUrl(config.ops.host, options.opsPort(), run.id);
        logger.info("run awaiting approval", { run_id: run.id, console: url });
        await Promise.allSettled([
          dispatch.dispatch({ type: "progress", run, ticket, message: waitingMessage(run, ticket, url) }),
          ...(options.announcers ?? []).map((a) => a(run, ticket, url)),
        ]);
      },
    }),
  };
}
