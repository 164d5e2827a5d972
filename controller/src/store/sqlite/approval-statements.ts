/** Creates a ticket's first run in AwaitingApproval rather than Queued (`guardrails.require_approval`). */
export const INSERT_AWAITING_RUN = `INSERT INTO task_runs (id, source, ticket_id, attempt, state, engine, created_at, updated_at, reason, repo_url)
  VALUES (?, ?, ?, ?, 'AwaitingApproval', ?, ?, ?, ?, ?)`;

/** The first transition of a run created in AwaitingApproval: its seq is 1, no lookup needed. */
export const INSERT_FIRST_AWAITING_HISTORY =
  "INSERT INTO transitions (run_id, seq, from_state, to_state, at, reason) VALUES (?, 1, NULL, 'AwaitingApproval', ?, ?)";
