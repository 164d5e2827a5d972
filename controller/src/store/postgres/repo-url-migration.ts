/**
 * Schema version 11 (SQLite: 10): the statements that create runs write each run's repository themselves (the
 * intake's batch, a retry, a follow-up: the ticket's as stored then), so the trigger of version 5, which read and
 * parsed the ticket's stored JSON for every new run, fires only for a run inserted without one: a ticket whose
 * repository text is not plain, and runs an older errand creates during a rolling upgrade.
 */
export const REPO_URL_STEP = {
  version: 11,
  name: "a run's repository written with the run, the trigger only as a fallback",
  sql: `
    DROP TRIGGER task_runs_repo_url ON task_runs;
    CREATE TRIGGER task_runs_repo_url BEFORE INSERT ON task_runs
      FOR EACH ROW WHEN (NEW.repo_url IS NULL) EXECUTE FUNCTION errand_task_run_repo();
  `,
};
