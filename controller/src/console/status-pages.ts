import type { Registry } from "prom-client";
import type { TicketSource } from "../intake/ticket-source.js";
import type { Notifier } from "../notify/notifier-types.js";
import type { PollState } from "../sources/polling/polling-source.js";
import type { Store } from "../store/store.js";
import type { Caller } from "./console-auth.js";
import { html } from "./html.js";
import { layout } from "./layout.js";
import { duration, when } from "./page-bits.js";

/** `/console/channels`: each channel's health, last error, restarts and failed calls (`agent_plugin_errors_total`). */
export async function channelsPage(
  caller: Caller,
  notifier: Notifier | undefined,
  registry: Registry,
): Promise<string> {
  if (notifier === undefined) {
    return layout(
      "Channels",
      caller,
      html`<h1>Channels</h1><p class="muted">No notification channels are configured.</p>`,
    );
  }
  const errors = await errorCounts(registry);
  const rows = notifier.list().map(
    (c) => html`<tr>
  <td>${c.label}</td><td>${c.backend}</td>
  <td>${c.state}${c.downReason ? html` <span class="muted">${c.downReason}</span>` : ""}</td>
  <td>${c.healthy ? "healthy" : "unhealthy"}${c.probing ? " (probing)" : ""}${c.onProbation ? " (on probation)" : ""}</td>
  <td>${c.lastFailure ? html`${c.lastFailure.code}: ${c.lastFailure.message} <span class="muted">${when(c.lastFailure.at)}</span>` : ""}</td>
  <td>${when(c.lastSuccessAt)}</td>
  <td>${c.restarts}</td>
  <td>${errors.get(c.label) ?? 0}</td>
</tr>`,
  );
  return layout(
    "Channels",
    caller,
    html`<h1>Channels</h1>
<table><thead><tr><th>Label</th><th>Backend</th><th>Process</th><th>Health</th><th>Last error</th><th>Last success</th><th>Restarts</th><th>Failed calls</th></tr></thead>
<tbody>${rows}</tbody></table>`,
  );
}

async function errorCounts(registry: Registry): Promise<Map<string, number>> {
  const metric = registry.getSingleMetric("agent_plugin_errors_total");
  const counts = new Map<string, number>();
  if (metric === undefined) return counts;
  for (const value of (await metric.get()).values) counts.set(String(value.labels.plugin), value.value);
  return counts;
}

/** The poller of `ticketing`, as the sources page reads it. */
export interface PollerView {
  readonly name: string;
  pollState(): PollState;
}

/** `/console/sources`: each ticket source's health, and the poller's last and next poll and rate-limit state. */
export function sourcesPage(caller: Caller, sources: readonly TicketSource[], poller: PollerView | undefined): string {
  const rows = sources.map((s) => {
    const h = s.health();
    return html`<tr><td>${s.name}</td><td>${h.ready ? "ready" : "not ready"}</td><td>${h.detail}</td></tr>`;
  });
  return layout(
    "Sources",
    caller,
    html`<h1>Ticket sources</h1>
${sources.length === 0 ? html`<p class="muted">No ticket sources run in this controller.</p>` : ""}
<table><thead><tr><th>Source</th><th>State</th><th>Detail</th></tr></thead><tbody>${rows}</tbody></table>
${poller === undefined ? "" : pollerSection(poller)}`,
  );
}

function pollerSection(poller: PollerView) {
  const p = poller.pollState();
  return html`<h2>Polling ${poller.name}</h2>
<dl class="poller">
  <dt>Interval</dt><dd>${duration(p.intervalMs)}</dd>
  <dt>Last poll</dt><dd>${p.lastPollAt === undefined ? "none yet" : when(p.lastPollAt)}</dd>
  <dt>Last successful poll</dt><dd>${p.lastOkAt === undefined ? "none yet" : when(p.lastOkAt)}</dd>
  <dt>Failures in a row</dt><dd>${p.failures}${p.lastError === undefined ? "" : html`: ${p.lastError}`}</dd>
  <dt>Rate limit</dt><dd>${p.limitedUntil === undefined ? "not limited" : `holding requests until ${when(p.limitedUntil)}`}</dd>
  <dt>Next poll</dt><dd>${p.nextPollAt === undefined ? "polling now, or not started" : when(p.nextPollAt)}</dd>
</dl>`;
}

/** The loop's leadership as this controller last saw it (a read: it takes and renews nothing). */
export interface LeaderView {
  readonly leading: boolean;
  readonly leader: string | undefined;
}

/** `/console/store`: where the store is, its schema version, the runs in each state, and who leads the loop. */
export async function storePage(caller: Caller, store: Store, election: LeaderView | undefined): Promise<string> {
  const counts = await store.countRuns();
  return layout(
    "Store",
    caller,
    html`<h1>Store</h1>
<dl>
  <dt>Kind</dt><dd>${store.kind}</dd>
  <dt>Location</dt><dd>${store.location}</dd>
  ${store.schemaVersion === undefined ? "" : html`<dt>Schema version</dt><dd>${store.schemaVersion}</dd>`}
  <dt>Leader of the loop</dt><dd>${election === undefined ? "unknown" : election.leading ? `this controller (${election.leader ?? ""})` : (election.leader ?? "none seen yet")}</dd>
</dl>
<h2>Runs by state</h2>
<table><thead><tr><th>State</th><th>Runs</th></tr></thead>
<tbody>${Object.entries(counts).map(([state, n]) => html`<tr><td><a href="/console/runs?state=${state}">${state}</a></td><td>${n}</td></tr>`)}</tbody></table>`,
  );
}
