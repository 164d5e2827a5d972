import type { Ticket } from "@errand/channel-sdk";

// A lone surrogate: text a database would store differently from the JSON its trigger reads (as a NUL would be).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A ticket's repository as a new run's `repo_url`, written with the run; null leaves it to the store's trigger,
 * which reads the ticket's stored JSON (for a repository text that is not plain, as before the intake wrote it).
 */
export function repoColumn(ticket: Ticket): string | null {
  const repo: unknown = ticket.repoUrl;
  return typeof repo === "string" && !repo.includes("\u0000") && !LONE_SURROGATE.test(repo) ? repo : null;
}
