/**
 * Schema version 10 (PostgreSQL: 11): the intake writes each first run's repository with the run (intake-ops.ts), so
 * the trigger of version 6, which parsed the ticket's stored JSON and updated the new row for every run, fires only
 * for a run inserted without one: a retry, a follow-up, a ticket whose repository text is not plain.
 */
export const REPO_URL_STEP = {
  version: 10,
  name: "a run's repository written with the run, the trigger only as a fallback",
  sql: `
    DROP TRIGGER task_runs_repo_url;
    CREATE TRIGGER task_runs_repo_url AFTER INSERT ON task_runs WHEN NEW.repo_url IS NULL BEGIN
      UPDATE task_runs SET repo_url = (
        SELECT CASE WHEN json_valid(t.payload) THEN json_extract(t.payload, '$.repoUrl') END
        FROM tickets t WHERE t.source = NEW.source AND t.id = NEW.ticket_id
      ) WHERE id = NEW.id;
    END;
  `,
};
