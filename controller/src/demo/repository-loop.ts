import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import type { TaskRun, Transition } from "../runs/task-run.js";
import { createSqliteStore } from "../store/sqlite/sqlite-store.js";
import { type Delivered, type EventTarget, issueLabeled, reviewCommented } from "./codehost-events.js";
import { startCodehostStandIn } from "./codehost-stand-in.js";
import type { DemoRepositoryConfig } from "./demo-config.js";
import type { DemoMessage } from "./demo-targets.js";
import { findHttpBackend, startGitHost } from "./git-host.js";
import type { MessageRouter } from "./message-router.js";
import { createTimeline, type Timeline } from "./timeline.js";

const OWNER = "acme";
const REPO = "shop";
const ISSUE = { title: "Fix the flaky login test", label: "errand", author: "demo-user" };
const REVIEW = {
  id: 501,
  author: "demo-reviewer",
  path: "ERRAND-DEMO.md",
  line: 3,
  body: "@errand please say in the note what the change does",
};

/** What the loop prints with, and where it reads the runs. */
export interface LoopContext {
  webhookPort: number;
  /** The controller's SQLite store. */
  dbPath: string;
  channels: readonly DemoMessage["target"][];
  router: MessageRouter;
  printTransition(t: Transition): void;
  printMessage(m: DemoMessage): void;
  say(line?: string): void;
  bold(text: string): string;
}

/** The local code host the demo runs the whole loop against. */
export interface RepositoryDemo {
  config: DemoRepositoryConfig;
  /** The issue labelled, its run, the pull request, a review comment, the follow-up: the last run shown and its timeline. */
  follow(ctx: LoopContext): Promise<{ run: TaskRun; timeline: Timeline }>;
  /** Prints the branch as the git server has it. */
  printBranch(say: (line?: string) => void, bold: (text: string) => string): void;
  close(): Promise<void>;
}

/**
 * Starts the git server (a bare acme/shop served by `git http-backend`
 * behind Basic auth) and the REST stand-in, both accepting a token made up
 * here that is written only to the demo's secrets folder. Undefined, with
 * the reason printed, when git or its http-backend is missing.
 */
export async function startRepositoryDemo(
  dir: string,
  say: (line?: string) => void,
): Promise<RepositoryDemo | undefined> {
  const backend = findHttpBackend();
  if ("missing" in backend) {
    say(`No pull request loop: ${backend.missing}. Install git (Debian: apt-get install git) to see it;`);
    say("the demo shows a ticket's run without a repository instead.");
    say();
    return undefined;
  }
  const token = `demo_${randomBytes(20).toString("hex")}`;
  const root = resolve(dir, "code-host");
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const git = await startGitHost({
    root,
    backend: backend.path,
    token,
    repository: `${OWNER}/${REPO}`,
    files: { "README.md": "# shop\n\nThe demo's repository: errand's runs commit here.\n" },
  });
  const host = await startCodehostStandIn({
    owner: OWNER,
    repo: REPO,
    token,
    branchExists: (branch) => git.log(`${OWNER}/${REPO}`, branch).length > 0,
  });
  const hookSecret = randomBytes(20).toString("hex");
  let branch: string | undefined;
  return {
    config: { apiUrl: host.url, gitUrl: git.url, token, hookSecret },
    async follow(ctx) {
      const target: EventTarget = {
        hookUrl: `http://127.0.0.1:${ctx.webhookPort}/webhooks/codehost-a`,
        secret: hookSecret,
        owner: OWNER,
        repo: REPO,
        repoUrl: `${git.url}/${OWNER}/${REPO}`,
        webUrl: host.url,
      };
      ctx.say(
        `${ctx.bold("code host")}   ${target.repoUrl} (git http-backend, Basic auth), REST ${host.url}  (a demo token, in .errand-demo/secrets)`,
      );
      const issue = { ...ISSUE, number: await nextIssueNumber(ctx.dbPath) };
      const issueLine = `#${issue.number} "${issue.title}" labelled ${issue.label}`;
      const first = await showRun(ctx, "issue", issueLine, issue.number, () =>
        issueLabeled(target, { ...issue, body: "The login test fails about one run in ten with a timeout." }),
      );
      const pull = host.pulls[0];
      if (first.run.state !== "Succeeded" || pull === undefined) return first;
      branch = pull.head;
      await ctx.router.completions(ctx.channels, 1, 6_000);
      ctx.router.hold();
      await first.timeline.close();
      ctx.say();
      ctx.say(
        `${ctx.bold("pull request")} ${pull.html_url}  ${pull.head} → ${pull.base}${pull.draft ? " (draft)" : ""}`,
      );
      const reviewLine = `${REVIEW.author} on ${REVIEW.path} line ${REVIEW.line}: "${REVIEW.body}"`;
      const second = await showRun(ctx, "review", reviewLine, issue.number, () =>
        reviewCommented(target, pull, REVIEW),
      );
      if (second.run.id === first.run.id) throw new Error("the review comment started no follow-up run");
      return second;
    },
    printBranch(say, bold) {
      if (branch === undefined) return;
      say(`${bold("branch")}      ${branch} on the git server:`);
      for (const line of git.log(`${OWNER}/${REPO}`, branch)) say(`              ${line}`);
      // The controller's progress comments on the issue, one per run, edited in place: their final headline.
      for (const c of host.comments)
        say(`${bold("comment")}     on issue #${c.issue}: ${(c.body.split("\n")[0] ?? "").replace(/[*`]/g, "")}`);
      say();
    },
    close: async () => {
      await Promise.all([git.close(), host.close()]);
    },
  };
}

/** Delivers one event, then follows the run it started in a timeline of its own. */
async function showRun(
  ctx: LoopContext,
  label: string,
  what: string,
  issue: number,
  deliver: () => Promise<Delivered>,
): Promise<{ run: TaskRun; timeline: Timeline }> {
  ctx.router.hold();
  const answer = await deliver();
  const status = /"status":"(\w+)"/.exec(answer.text)?.[1] ?? answer.text;
  ctx.say(
    `${ctx.bold(label)}${" ".repeat(12 - label.length)}${what}  → POST /webhooks/codehost-a ${answer.status} ${status}`,
  );
  if (answer.status !== 200 || status !== "accepted")
    throw new Error(`the controller did not accept it: ${answer.text}`);
  const timeline = await createTimeline({
    dbPath: ctx.dbPath,
    ticket: { source: "codehost_a", id: String(issue) },
    channels: ctx.channels,
    printTransition: ctx.printTransition,
    printMessage: ctx.printMessage,
  });
  ctx.router.use(timeline);
  ctx.say();
  return { run: await timeline.follow(), timeline };
}

/**
 * The first issue number without runs in the store: the store keeps the
 * runs of earlier demos, and a ticket that already ran is not queued again.
 */
async function nextIssueNumber(dbPath: string): Promise<number> {
  const store = await createSqliteStore({ path: dbPath });
  try {
    let n = 1;
    while ((await store.listRuns({ ticket: { source: "codehost_a", id: String(n) }, limit: 1 })).length > 0) n += 1;
    return n;
  } finally {
    await store.close();
  }
}
