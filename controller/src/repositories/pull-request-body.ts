import type { TaskResult, Ticket } from "@errand/channel-sdk";

/** The pull request's title: the ticket's. */
export function pullRequestTitle(ticket: Ticket): string {
  const title = ticket.title.trim() === "" ? `Errand: ticket ${ticket.id}` : ticket.title.trim();
  return title.length > 250 ? `${title.slice(0, 249)}…` : title;
}

/**
 * The pull request's body: the ticket's link, the run's summary, cost, tokens and duration. An issue of
 * the same repository is closed by the merge (`Closes #N`), as the coding agents operators know do it.
 */
export function pullRequestBody(ticket: Ticket, runId: string, result: TaskResult): string {
  const lines: string[] = [];
  const ref = ticket.externalUrl === "" ? `ticket ${ticket.id}` : `[ticket ${ticket.id}](${ticket.externalUrl})`;
  lines.push(`Opened by Errand run \`${runId}\` for ${ref}.`);
  if (/^\d+$/.test(ticket.id) && ticket.source === "codehost_a") lines.push("", `Closes #${ticket.id}`);
  if (result.summary.trim() !== "") lines.push("", "## Summary", "", result.summary.trim());
  lines.push("", "## Run", "", "| | |", "|---|---|");
  lines.push(`| Cost | ${result.costUsd === undefined ? "unknown" : `$${result.costUsd.toFixed(2)}`} |`);
  const usage = result.tokenUsage;
  lines.push(`| Tokens | ${usage === undefined ? "unknown" : `${usage.inputTokens} in, ${usage.outputTokens} out`} |`);
  lines.push(`| Duration | ${result.durationMs === undefined ? "unknown" : duration(result.durationMs)} |`);
  return lines.join("\n");
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
