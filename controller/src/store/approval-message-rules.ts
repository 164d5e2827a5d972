import type { ApprovalMessageTake } from "./approval-message.js";
import { requireCount, requireMs, requireText } from "./input-checks.js";

/** A row of the take: the run's columns, its ticket's JSON and the message's columns. */
export interface ApprovalMessageRowParts {
  payload: string;
  message_channel: string;
  message_ts: string;
  message_attempts: number;
}

/** The message columns the take reads, aliased as {@link ApprovalMessageRowParts} names them. */
export const APPROVAL_MESSAGE_COLUMNS = `t.payload, r.approval_message_channel AS message_channel,
  r.approval_message_ts AS message_ts, r.approval_message_attempts AS message_attempts`;

/** The rows a take may hand out: decided, recorded, not updated, not held, with attempts left. */
export const TAKEABLE_APPROVAL_MESSAGE = `r.approval_message_ts IS NOT NULL AND r.approval_message_updated_at IS NULL
  AND r.state <> 'AwaitingApproval'`;

/** Refuses a take whose numbers are not whole (a limit of 0 takes nothing); returns the checked values. */
export function checkApprovalMessageTake(take: ApprovalMessageTake): Required<Omit<ApprovalMessageTake, "runId">> & {
  runId: string | null;
} {
  const limit = requireCount(take?.limit, "limit of approval messages to update");
  const leaseMs = requireMs(take.leaseMs, "hold of an approval message update");
  const maxAttempts = requireCount(take.maxAttempts, "most attempts at an approval message update");
  const runId = take.runId === undefined ? null : requireText(take.runId, "run id");
  return { limit, leaseMs, maxAttempts, runId };
}

/** The checked text of `Store.recordApprovalMessage`. */
export function checkApprovalMessageRef(runId: string, channel: string, ts: string): [string, string, string] {
  return [
    requireText(runId, "run id"),
    requireText(channel, `chat A channel of run ${runId}'s approval message`),
    requireText(ts, `chat A ts of run ${runId}'s approval message`),
  ];
}
