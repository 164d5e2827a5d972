import { styleText } from "node:util";
import type { Ticket } from "@errand/channel-sdk";
import { formatStep, logSteps } from "../engines/log-steps.js";
import type { RunState, TaskRun, Transition } from "../runs/task-run.js";

type Style = Parameters<typeof styleText>[0];

/** Colours only for a terminal; `NO_COLOR` turns them off (no-color.org). */
export function painter(stream: NodeJS.WriteStream): (style: Style, text: string) => string {
  const on = stream.isTTY === true && process.env.NO_COLOR === undefined;
  return (style, text) => (on ? styleText(style, text) : text);
}

const STATE_STYLE: Record<RunState, Style> = {
  Queued: "gray",
  Running: "cyan",
  Succeeded: "green",
  Failed: "red",
  TimedOut: "red",
  Cancelled: "yellow",
  Refused: "yellow",
  AwaitingApproval: "magenta",
};

/** `12s`, `4m 03s`, `2h 10m`. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** Local wall-clock time of day with milliseconds, for timelines. */
export function clock(at: number): string {
  const d = new Date(at);
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/** One table of runs, newest first. */
export function formatRunTable(runs: readonly TaskRun[], paint: ReturnType<typeof painter>, now: number): string {
  if (runs.length === 0) return "no runs\n";
  const rows = runs.map((r) => [
    r.id,
    r.state,
    `${r.ticket.source}:${r.ticket.id}${r.parentRunId === undefined ? "" : " ↳ follow-up"}`,
    r.engine,
    `${formatDuration(now - r.updatedAt)} ago`,
    r.reason,
  ]);
  const head = ["RUN", "STATE", "TICKET", "ENGINE", "UPDATED", "REASON"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[], state?: RunState) =>
    cells
      .map((c, i) => {
        const padded = i === cells.length - 1 ? c : c.padEnd(widths[i] as number);
        return i === 1 && state ? paint(STATE_STYLE[state], padded) : padded;
      })
      .join("  ")
      .trimEnd();
  return `${[paint("bold", line(head)), ...rows.map((row, i) => line(row, runs[i]?.state))].join("\n")}\n`;
}

/** One timeline line: `12:00:01.234  Queued → Running  started on local with engine demo`. */
export function formatTransition(t: Transition, paint: ReturnType<typeof painter>): string {
  const move =
    t.from === undefined
      ? paint(STATE_STYLE[t.to], t.to)
      : `${paint(STATE_STYLE[t.from], t.from)} → ${paint(STATE_STYLE[t.to], t.to)}`;
  return `  ${paint("dim", clock(t.at))}  ${move}  ${t.reason}${byWhom(t.actor)}`;
}

/** `  (by cli alice from host-1)`: who caused a transition; nothing for the controller itself. */
function byWhom(actor: Transition["actor"]): string {
  if (actor === undefined) return "";
  return `  (by ${actor.kind} ${actor.name}${actor.from === undefined ? "" : ` from ${actor.from}`})`;
}

/** How `errand runs show` prints the log tail: as readable steps, or its lines as written (`--raw`). */
export type LogView = "steps" | "raw";

/** The log tail's lines: as written, or each JSON Lines event of an engine as one readable step. */
function logLines(log: string, view: LogView, paint: ReturnType<typeof painter>): string[] {
  if (view === "raw") return log.trimEnd().split("\n");
  return logSteps(log).map((s) => formatStep(s, (label) => paint("bold", label)));
}

/** `errand runs show`: ticket, timeline, result, log tail. */
export function formatRunDetail(
  run: TaskRun,
  ticket: Ticket | undefined,
  transitions: readonly Transition[],
  log: string | undefined,
  paint: ReturnType<typeof painter>,
  view: LogView = "steps",
  chain: readonly string[] = [],
): string {
  const out: string[] = [];
  out.push(
    `${paint("bold", run.id)}  ${paint(STATE_STYLE[run.state], run.state)}  attempt ${run.attempt}, engine ${run.engine}${run.backend ? ` on ${run.backend}` : ""}`,
  );
  out.push("", paint("bold", "Ticket"));
  out.push(`  ${run.ticket.source}:${run.ticket.id}  ${ticket?.title ?? "(not stored)"}`);
  if (ticket?.externalUrl) out.push(`  ${ticket.externalUrl}`);
  if (ticket?.repoUrl) out.push(`  repository ${ticket.repoUrl}`);
  if (run.branch !== undefined) out.push(`  branch ${run.branch}`);
  if (chain.length > 0) out.push("", paint("bold", "Follow-ups"), ...chain);
  out.push("", paint("bold", "Timeline"));
  for (const t of transitions) out.push(formatTransition(t, paint));
  if (run.cancelRequestedAt !== undefined && run.state === "Running")
    out.push(`  ${paint("dim", clock(run.cancelRequestedAt))}  cancel requested${byWhom(run.cancelRequestedBy)}`);
  const r = run.result;
  if (r !== undefined) {
    out.push("", paint("bold", "Result"));
    out.push(
      `  ${r.success ? paint("green", "success") : paint("red", "failure")}${r.failureReason ? `: ${r.failureReason}` : ""}`,
    );
    if (r.pullRequestUrl) out.push(`  pull request ${r.pullRequestUrl}`);
    if (r.summary) out.push(...r.summary.split("\n").map((l) => `  ${l}`));
    const facts = [
      r.costUsd === undefined ? undefined : `cost $${r.costUsd.toFixed(2)}`,
      r.durationMs === undefined ? undefined : `took ${formatDuration(r.durationMs)}`,
      r.tokenUsage === undefined
        ? undefined
        : `${r.tokenUsage.inputTokens} tokens in, ${r.tokenUsage.outputTokens} out`,
    ].filter((f) => f !== undefined);
    if (facts.length > 0) out.push(`  ${facts.join(", ")}`);
  } else if (run.costUsd !== undefined) {
    out.push("", `  cost so far $${run.costUsd.toFixed(2)}`);
  }
  if (log !== undefined) {
    out.push(
      "",
      paint("bold", `Log (${run.logRef ?? "log"}, last ${view === "raw" ? "lines" : "steps; --raw for the lines"})`),
    );
    out.push(...logLines(log, view, paint).map((l) => `  ${l}`));
  }
  return `${out.join("\n")}\n`;
}
