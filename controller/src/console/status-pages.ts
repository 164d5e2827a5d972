import type { Registry } from "prom-client";
import type { TicketSource } from "../intake/ticket-source.js";
import type { Notifier } from "../notify/notifier-types.js";
import type { Store } from "../store/store.js";
import type { Caller } from "./console-auth.js";
import { html } from "./html.js";
import { layout } from "./layout.js";
import { when } from "./page-bits.js";

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

/** `/console/sources`: each ticket source and what it reports (for pollers: the last poll, failures and back-off). */
export function sourcesPage(caller: Caller, sources: readonly TicketSource[]): string {
  const rows = sources.map((s) => {
    const h = s.health();
    return html`<tr><td>${s.name}</td><td>${h.ready ? "ready" : "not ready"}</td><td>${h.detail}</td></tr>`;
  });
  return layout(
    "Sources",
    caller,
    html`<h1>Ticket sources</h1>
${sources.length === 0 ? html`<p class="muted">No ticket sources run in this controller.</p>` : ""}
<table><thead><tr><th>Source</th><th>State</th><th>Detail</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
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
