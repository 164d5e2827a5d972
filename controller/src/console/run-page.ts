import type { Ticket } from "@errand/channel-sdk";
import type { LogStep } from "../engines/log-steps.js";
import { type Actor, isTerminal, type TaskRun, type Transition } from "../runs/task-run.js";
import type { Store } from "../store/store.js";
import type { Caller } from "./console-auth.js";
import { html, outsideLink, type SafeHtml } from "./html.js";
import { layout } from "./layout.js";
import { duration, stateBadge, when } from "./page-bits.js";
import { runActions } from "./run-actions-form.js";

/** What the detail page shows besides the store's records. */
export interface RunPageContext {
  caller: Caller;
  /** The log tail as readable steps, secrets masked; undefined when there is no log. */
  steps: LogStep[] | undefined;
  actionsEnabled: boolean;
  approvalsWired: boolean;
  /** A line saying what the last action did (after its redirect). */
  notice: string | undefined;
}

/** `/console/runs/<id>`: the ticket, the timeline, the result, the attempts and follow-ups of the ticket, the log tail. */
export async function runPage(store: Store, run: TaskRun, context: RunPageContext): Promise<string> {
  const [ticket, transitions, attempts] = await Promise.all([
    store.getTicket(run.ticket),
    store.transitions(run.id),
    store.listRuns({ ticket: run.ticket, limit: 20 }),
  ]);
  const live = !isTerminal(run.state);
  const body = html`<p><a href="/console/runs">← Runs</a></p>
<h1>${ticket?.title ?? run.ticket.id}</h1>
${context.notice === undefined ? "" : html`<div class="notice" role="status">${context.notice}</div>`}
<dl>
  <dt>Run</dt><dd>${run.id} · attempt ${run.attempt}</dd>
  <dt>State</dt><dd>${stateBadge(run.state)} <span class="muted">${run.reason}</span></dd>
  <dt>Engine</dt><dd>${run.engine}${run.backend ? ` on ${run.backend}` : ""}</dd>
  <dt>Created</dt><dd>${when(run.createdAt)}</dd>
  ${run.startedAt ? html`<dt>Started</dt><dd>${when(run.startedAt)}</dd>` : ""}
  ${run.finishedAt ? html`<dt>Finished</dt><dd>${when(run.finishedAt)}</dd>` : ""}
  ${cancelRequest(run)}
</dl>
${runActions(run, context)}
${result(run)}
${ticketSection(run, ticket)}
<h2>Timeline</h2>
${timeline(transitions)}
<h2>Attempts and follow-ups of this ticket</h2>
${attemptList(run, attempts)}
<h2>Log <span id="live" class="muted">${live ? "(reload for more, or enable JavaScript to follow it live)" : ""}</span></h2>
${logList(run, context.steps, live)}`;
  return layout(run.id, context.caller, body);
}

function ticketSection(run: TaskRun, ticket: Ticket | undefined): SafeHtml {
  if (ticket === undefined) return html`<h2>Ticket</h2><p class="muted">The ticket ${run.ticket.id} is not stored.</p>`;
  return html`<h2>Ticket</h2>
<dl>
  <dt>Source</dt><dd>${[ticket.source, ticket.id, ticket.ticketType].filter(Boolean).join(" · ")}</dd>
  <dt>Repository</dt><dd>${ticket.repoUrl}</dd>
  ${ticket.externalUrl ? html`<dt>Link</dt><dd>${outsideLink(ticket.externalUrl)}</dd>` : ""}
  ${ticket.labels.length > 0 ? html`<dt>Labels</dt><dd>${ticket.labels.join(", ")}</dd>` : ""}
</dl>
<pre class="ticket-body">${ticket.description}</pre>`;
}

function result(run: TaskRun): SafeHtml {
  const r = run.result;
  if (r === undefined) {
    return run.costUsd === undefined ? html`` : html`<p>Cost so far $${run.costUsd.toFixed(2)}</p>`;
  }
  const tokens = r.tokenUsage && `${r.tokenUsage.inputTokens} in, ${r.tokenUsage.outputTokens} out`;
  return html`<h2>Result</h2>
<dl>
  <dt>Outcome</dt><dd>${r.success ? "succeeded" : html`failed: ${r.failureReason}`}</dd>
  ${r.pullRequestUrl ? html`<dt>Pull request</dt><dd>${outsideLink(r.pullRequestUrl)}</dd>` : ""}
  ${r.costUsd === undefined ? "" : html`<dt>Cost</dt><dd>$${r.costUsd.toFixed(2)}</dd>`}
  ${tokens ? html`<dt>Tokens</dt><dd>${tokens}</dd>` : ""}
  ${r.durationMs === undefined ? "" : html`<dt>Duration</dt><dd>${duration(r.durationMs)}</dd>`}
</dl>
${r.summary ? html`<pre class="summary">${r.summary}</pre>` : ""}`;
}

function timeline(transitions: readonly Transition[]): SafeHtml {
  return html`<table class="timeline">
<thead><tr><th>#</th><th>At</th><th>From</th><th>To</th><th>Why, and who</th></tr></thead>
<tbody>${transitions.map(
    (t) =>
      html`<tr><td>${t.seq}</td><td>${when(t.at)}</td><td>${t.from ?? ""}</td><td>${stateBadge(t.to)}</td><td>${t.reason}${byWhom(t.actor)}</td></tr>`,
  )}</tbody>
</table>`;
}

/** Who caused a transition, as stored; nothing when the controller itself did. */
function byWhom(actor: Actor | undefined): SafeHtml {
  if (actor === undefined) return html``;
  return html` <span class="muted">(by ${actor.kind} ${actor.name}${actor.from === undefined ? "" : ` from ${actor.from}`})</span>`;
}

/** A Running run's pending cancel: when, and who asked (the Cancelled transition comes when the engine stopped). */
function cancelRequest(run: TaskRun): SafeHtml {
  if (run.cancelRequestedAt === undefined || run.state !== "Running") return html``;
  return html`<dt>Cancel requested</dt><dd>${when(run.cancelRequestedAt)}${byWhom(run.cancelRequestedBy)}</dd>`;
}

function attemptList(run: TaskRun, attempts: readonly TaskRun[]): SafeHtml {
  return html`<ol class="attempts">${[...attempts]
    .reverse()
    .map(
      (a) =>
        html`<li>${a.id === run.id ? html`<strong>${a.id}</strong>` : html`<a href="/console/runs/${a.id}">${a.id}</a>`} · attempt ${a.attempt} · ${stateBadge(a.state)}${followUpOf(a)}${a.result?.pullRequestUrl ? html` · ${outsideLink(a.result.pullRequestUrl)}` : ""}</li>`,
    )}</ol>`;
}

/** The follow-up chain, on each attempt that follows another: `follow-up on review by alice of run_…`. */
function followUpOf(a: TaskRun): SafeHtml {
  if (a.parentRunId === undefined) return html``;
  const f = a.followUp;
  const author = f?.comments[0]?.author;
  const what = f === undefined ? "" : ` on ${f.trigger.replace("_", " ")}${author ? ` by ${author}` : ""}`;
  return html` · follow-up${what} of <a href="/console/runs/${a.parentRunId}">${a.parentRunId}</a>`;
}

/** The log tail; on a live run the list names its stream, which the script follows. */
export function logList(run: TaskRun, steps: LogStep[] | undefined, live: boolean): SafeHtml {
  const stream = live ? `/console/runs/${run.id}/log` : undefined;
  if (steps === undefined && !live) return html`<p class="muted">No log.</p>`;
  return html`<ol id="log" class="log"${stream ? html` data-stream="${stream}"` : ""}>${(steps ?? []).map(
    (s) =>
      html`<li${s.source === "stderr" ? html` class="stderr"` : ""}>${s.label ? html`<span class="label">${s.label}</span>` : ""}${s.text}</li>`,
  )}</ol>`;
}
