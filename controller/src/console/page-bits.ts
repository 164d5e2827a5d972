import { html, type SafeHtml } from "./html.js";

/** A run's state, styled by its kind (the class names come from the fixed list of states). */
export function stateBadge(state: string): SafeHtml {
  return html`<span class="state state-${state.replace(/[^A-Za-z]/g, "")}">${state}</span>`;
}

/** A time as UTC, to the second. */
export function when(ms: number | undefined): string {
  return ms === undefined ? "" : `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** A duration in words a person reads at a glance: `850 ms`, `12 s`, `3 min 4 s`, `2 h 5 min`. */
export function duration(ms: number | undefined): string {
  if (ms === undefined) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
