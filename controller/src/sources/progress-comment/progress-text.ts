import type { TaskResult } from "@errand/channel-sdk";
import type { TaskRun } from "../../runs/task-run.js";

/** Progress lines a comment shows at most: the latest ones. */
export const MAX_STEPS = 10;
/** Longest progress line kept, in characters. */
const MAX_STEP = 200;
/** Longest summary kept, in characters (hosts refuse comments over 65,536). */
const MAX_SUMMARY = 4_000;

/** What a run's comment shows while it runs. */
export interface ProgressView {
  runId: string;
  engine: string;
  /** The latest progress lines, oldest first. */
  steps: string[];
  /** The host renders HTML in markdown (a folded summary, a hidden marker); otherwise plain markdown only. */
  html: boolean;
}

/** The hidden line that marks a run's progress comment. */
export function progressMarker(runId: string): string {
  return `<!-- errand:progress ${runId} -->`;
}

/** Adds a progress message to the view: one line, cut to size, the oldest dropped beyond {@link MAX_STEPS}. */
export function addStep(view: ProgressView, message: string): void {
  const line = message.replace(/\s+/g, " ").trim();
  if (line === "" || line === view.steps.at(-1)) return;
  view.steps.push(line.length > MAX_STEP ? `${line.slice(0, MAX_STEP - 1)}…` : line);
  if (view.steps.length > MAX_STEPS) view.steps.splice(0, view.steps.length - MAX_STEPS);
}

/** The comment while the run is under way. */
export function runningText(view: ProgressView): string {
  return [
    `**Errand is working on this** · run \`${view.runId}\``,
    checklist(view, "- [ ] Finish: the outcome and the pull request link will appear here"),
    view.html ? progressMarker(view.runId) : "",
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/** The comment once the run ended: the outcome and the pull request link first, then the steps and the summary. */
export function finalText(view: ProgressView, run: TaskRun, result: TaskResult): string {
  const reason = result.failureReason || run.reason;
  const outcome = run.state === "Succeeded" ? "Succeeded" : `${run.state}${reason ? `: ${inline(reason)}` : ""}`;
  const pr =
    result.pullRequestUrl === "" ? "No pull request was opened." : `Pull request: ${neutral(result.pullRequestUrl)}`;
  const facts = [
    result.durationMs === undefined ? "" : `in ${duration(result.durationMs)}`,
    (result.costUsd ?? run.costUsd) === undefined ? "" : `cost $${(result.costUsd ?? run.costUsd ?? 0).toFixed(2)}`,
  ].filter(Boolean);
  const done = `- [${run.state === "Succeeded" ? "x" : " "}] ${outcome}${facts.length ? ` (${facts.join(", ")})` : ""}`;
  const summary = result.summary.trim();
  return [
    `**Errand finished: ${run.state}** · run \`${view.runId}\``,
    pr,
    checklist(view, done),
    summary === "" ? "" : folded(view, neutral(cut(summary))),
    view.html ? progressMarker(view.runId) : "",
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

function folded(view: ProgressView, summary: string): string {
  return view.html ? `<details><summary>Summary</summary>\n\n${summary}\n\n</details>` : `**Summary**\n\n${summary}`;
}

function checklist(view: ProgressView, last: string): string {
  const started = `- [x] Run started (engine \`${view.engine}\`)`;
  return [started, ...view.steps.map((s) => `- [x] ${neutral(s)}`), last].join("\n");
}

/**
 * The agent's words are quoted, not obeyed: a zero-width space after each
 * `@` keeps them from mentioning (and notifying) anyone, or from carrying the
 * trigger phrase into a comment that would start another run.
 */
function neutral(text: string): string {
  return text.replaceAll("@", "@\u200b");
}

function inline(text: string): string {
  return neutral(text.replace(/\s+/g, " ").trim());
}

function cut(text: string): string {
  return text.length > MAX_SUMMARY ? `${text.slice(0, MAX_SUMMARY)}\n\n… (summary cut)` : text;
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
