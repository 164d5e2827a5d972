import { isTerminal, type TaskRun } from "../runs/task-run.js";
import type { Caller } from "./console-auth.js";
import { html, type SafeHtml } from "./html.js";

/** The state in which a run waits for an operator's approval (the approvals flow adds it to the run model). */
export const AWAITING_APPROVAL = "AwaitingApproval";

/** The action buttons a run's page offers: cancel while it is active, retry once it ended, approve/reject while it waits. */
export function runActions(
  run: TaskRun,
  context: { caller: Caller; actionsEnabled: boolean; approvalsWired: boolean },
): SafeHtml {
  const { caller } = context;
  if (!context.actionsEnabled) {
    return html`<p class="muted">Read-only console: set console.token_secret to cancel, retry or approve runs here.</p>`;
  }
  if (caller.label === undefined) {
    return html`<p><a href="/console/login?next=/console/runs/${run.id}">Log in</a> to cancel, retry or approve this run.</p>`;
  }
  const csrf = caller.session?.csrf ?? "";
  const button = (action: string, label: string, danger = false) =>
    html`<form class="inline" method="post" action="/console/runs/${run.id}/${action}">
<input type="hidden" name="csrf" value="${csrf}"><button${danger ? html` class="danger"` : ""} name="action" value="${action}">${label}</button>
</form>`;
  const awaiting = (run.state as string) === AWAITING_APPROVAL;
  return html`<div class="actions">
${awaiting && context.approvalsWired ? [button("approve", "Approve"), button("reject", "Reject", true)] : ""}
${isTerminal(run.state) ? button("retry", "Retry") : button("cancel", "Cancel", true)}
</div>`;
}
