import type { Ticket } from "@errand/channel-sdk";
import type { LinearDocument } from "@linear/sdk";
import type { LabelRef, Workspace } from "./workspace.js";

/** What the rules read of an issue (the SDK's Issue has these fields). */
export interface IssueFacts {
  id: string;
  identifier: string;
  title: string;
  description?: string | null;
  url: string;
  labelIds: string[];
  stateId: string | undefined;
  trashed?: boolean | null;
}

// Workflow state types of closed work; the poll leaves these out unless state_filter names one.
const CLOSED_TYPES = ["completed", "canceled"];

/**
 * The server-side filter of a poll: the team's issues that carry a trigger
 * label and are open or in the `state_filter` state. Issues with a trigger
 * label in another open state come back too, so a dry run can say why they
 * wait; closed ones do not, so the answer stays small as the team's history
 * grows. Without trigger labels, only the `state_filter` state is asked for.
 */
export function pollFilter(ws: Workspace): LinearDocument.IssueFilter {
  const team = { id: { eq: ws.team.id } };
  const triggerIds = ws.trigger.flatMap((l) => l.ids);
  if (triggerIds.length === 0) return { team, state: { id: { eq: ws.state?.id ?? "" } } };
  const open = { type: { nin: CLOSED_TYPES } };
  return {
    team,
    labels: { some: { id: { in: triggerIds } } },
    state: ws.state === undefined ? open : { or: [{ id: { eq: ws.state.id } }, open] },
  };
}

/**
 * Why the rules of spec 3 skip the issue, in words, or undefined to pick
 * it up: it must carry every trigger label, be in the `state_filter`
 * state, and carry no excluded label and not the failed label (a failed
 * issue is never retried automatically).
 */
export function skipReason(issue: IssueFacts, ws: Workspace): string | undefined {
  const carries = (ref: LabelRef) => ref.ids.some((id) => issue.labelIds.includes(id));
  const reasons: string[] = [];
  if (issue.trashed === true) reasons.push("is in the trash");
  if (carries(ws.failed))
    reasons.push(
      `carries the failed label ${quote(ws.failed.name)}: a run failed, and failed issues are not retried automatically (errand runs retry starts one)`,
    );
  const excluded = ws.exclude.filter(carries).map((l) => quote(l.name));
  if (excluded.length > 0)
    reasons.push(`carries the excluded label${excluded.length > 1 ? "s" : ""} ${excluded.join(", ")} (exclude_labels)`);
  const missing = ws.trigger.filter((l) => !carries(l)).map((l) => quote(l.name));
  if (missing.length > 0)
    reasons.push(`lacks the trigger label${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (labels)`);
  if (ws.state !== undefined && issue.stateId !== ws.state.id) {
    const current = issue.stateId === undefined ? "no state" : quote(ws.stateNames.get(issue.stateId) ?? issue.stateId);
    reasons.push(`is in state ${current}, not ${quote(ws.state.name)} (state_filter)`);
  }
  return reasons.length === 0 ? undefined : `${issue.identifier} ${reasons.join("; ")}`;
}

/**
 * The ticket of an issue. Its id is the issue's UUID, not the identifier
 * (ENG-123): the identifier changes when the issue moves to another team,
 * and a ticket's identity must not, or a moved issue would run twice.
 */
export function toTicket(issue: IssueFacts, ws: Workspace): Ticket {
  return {
    id: issue.id,
    title: issue.title,
    description: issue.description ?? "",
    ticketType: "issue",
    repoUrl: "",
    externalUrl: issue.url,
    labels: issue.labelIds.flatMap((id) => {
      const name = ws.labelNames.get(id);
      return name === undefined ? [] : [name];
    }),
    source: "tracker_a",
  };
}

function quote(name: string): string {
  return JSON.stringify(name);
}
