import type { TaskResult, Ticket } from "@errand/channel-sdk";
import { formatCost, formatDuration, formatTokens, ticketLink } from "@errand/channel-sdk/helpers";

/** The JSON body POSTed for every notification (snake_case, like the protocol's field names). */
export interface WebhookPayload {
  event: "start" | "complete" | "notify";
  task_run_id: string;
  /** One human-readable line, for targets that only show text. */
  text: string;
  ticket: Record<string, unknown>;
  engine?: string;
  message?: string;
  result?: Record<string, unknown>;
}

function ticketJson(ticket: Ticket): Record<string, unknown> {
  return {
    id: ticket.id,
    title: ticket.title,
    ticket_type: ticket.ticketType,
    repo_url: ticket.repoUrl,
    external_url: ticket.externalUrl,
    labels: ticket.labels,
    source: ticket.source,
  };
}

function label(ticket: Ticket): string {
  const link = ticketLink(ticket);
  return link.url ? `${link.label} (${link.url})` : link.label;
}

export function startPayload(ticket: Ticket, engine: string, taskRunId: string): WebhookPayload {
  return {
    event: "start",
    task_run_id: taskRunId,
    engine,
    text: `Agent started working on: ${label(ticket)}${engine ? `, using ${engine}` : ""}`,
    ticket: ticketJson(ticket),
  };
}

export function notifyPayload(message: string, ticket: Ticket, taskRunId: string): WebhookPayload {
  return {
    event: "notify",
    task_run_id: taskRunId,
    message,
    text: `${label(ticket)}: ${message}`,
    ticket: ticketJson(ticket),
  };
}

export function completePayload(ticket: Ticket, result: TaskResult, taskRunId: string): WebhookPayload {
  const facts = [formatCost(result.costUsd), formatDuration(result.durationMs), formatTokens(result.tokenUsage)].filter(
    Boolean,
  );
  const text = result.success
    ? `✅ Completed ${label(ticket)}${result.pullRequestUrl ? `: ${result.pullRequestUrl}` : ""}${facts.length ? ` (${facts.join(", ")})` : ""}`
    : `❌ Failed on ${label(ticket)}: ${result.failureReason || "no reason given"}`;
  return {
    event: "complete",
    task_run_id: taskRunId,
    text,
    ticket: ticketJson(ticket),
    result: {
      success: result.success,
      summary: result.summary,
      pull_request_url: result.pullRequestUrl || undefined,
      failure_reason: result.failureReason || undefined,
      cost_usd: result.costUsd,
      duration_ms: result.durationMs,
      token_usage: result.tokenUsage && {
        input_tokens: result.tokenUsage.inputTokens,
        output_tokens: result.tokenUsage.outputTokens,
        cached_input_tokens: result.tokenUsage.cachedInputTokens,
      },
    },
  };
}
