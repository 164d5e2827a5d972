/**
 * Schema version 9: where chat A shows a run's approval message, and whether it was updated once the run left
 * AwaitingApproval (a claim with a lease and a count of attempts, so one process updates it, a bounded number of times).
 */
export const APPROVAL_MESSAGE_STEP = {
  version: 9,
  name: "the chat A approval message of a run, and its update once decided",
  sql: `
    -- Recorded once chat A took the message. NULL: no message (none posted, or posted by an older errand).
    ALTER TABLE task_runs ADD COLUMN approval_message_channel TEXT;
    ALTER TABLE task_runs ADD COLUMN approval_message_ts TEXT;
    -- The update's claim (until when one process holds it), its attempts, and when it was done.
    ALTER TABLE task_runs ADD COLUMN approval_message_claim_expires_at INTEGER;
    ALTER TABLE task_runs ADD COLUMN approval_message_attempts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE task_runs ADD COLUMN approval_message_updated_at INTEGER;
    CREATE INDEX task_runs_approval_message_pending ON task_runs (id)
      WHERE approval_message_ts IS NOT NULL AND approval_message_updated_at IS NULL;
  `,
};
