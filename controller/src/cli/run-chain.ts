import type { TaskRun } from "../runs/task-run.js";
import type { Store } from "../store/store.js";

/** One run of a follow-up chain, as `errand runs show` prints it (and `--json` gives it). */
export interface ChainLink {
  id: string;
  attempt: number;
  state: TaskRun["state"];
  /** The pull request the run opened, or the one it followed up. */
  pullRequestUrl: string | undefined;
  /** For a follow-up: what asked for it, `review by alice`. */
  trigger: string | undefined;
}

/** A run's place among its ticket's follow-ups: the run it follows, and the runs that follow it. */
export interface RunChain {
  parent: ChainLink | undefined;
  self: ChainLink;
  children: ChainLink[];
}

/** The chain of `run`; undefined when it neither follows a run nor is followed. */
export async function readRunChain(store: Store, run: TaskRun): Promise<RunChain | undefined> {
  const [parent, attempts] = await Promise.all([
    run.parentRunId === undefined ? undefined : store.getRun(run.parentRunId),
    store.listRuns({ ticket: run.ticket, limit: 1000 }),
  ]);
  const children = attempts.filter((r) => r.parentRunId === run.id).sort((a, b) => a.attempt - b.attempt);
  if (parent === undefined && children.length === 0) return undefined;
  return { parent: parent && link(parent), self: link(run), children: children.map(link) };
}

function link(run: TaskRun): ChainLink {
  const f = run.followUp;
  const author = f?.comments[0]?.author;
  const what = f === undefined ? undefined : f.trigger === "review" ? "review" : f.trigger.replace("_", " ");
  return {
    id: run.id,
    attempt: run.attempt,
    state: run.state,
    pullRequestUrl: run.result?.pullRequestUrl || f?.pullRequest.url || undefined,
    trigger: what === undefined ? undefined : `${what}${author ? ` by ${author}` : ""}`,
  };
}

/** The chain's lines: `← parent`, `● this run`, `→ child`, each with its state, pull request and trigger. */
export function formatRunChain(chain: RunChain, paint: (style: "bold" | "dim", text: string) => string): string[] {
  const line = (mark: string, l: ChainLink, self = false) => {
    const facts = [l.state, l.trigger && `follow-up on ${l.trigger}`, l.pullRequestUrl].filter(Boolean).join("  ");
    return `  ${mark} ${self ? paint("bold", l.id) : l.id}  ${facts}`;
  };
  return [
    ...(chain.parent ? [line("←", chain.parent)] : []),
    line("●", chain.self, true),
    ...chain.children.map((c) => line("→", c)),
  ];
}
