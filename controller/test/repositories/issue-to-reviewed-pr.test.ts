import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isTerminal, type TaskRun } from "../../src/runs/task-run.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../src/store/store.js";
import { eventually } from "../controller/harness.js";
import { type CliRun, runCli } from "../helpers/cli.js";
import type { FakePull } from "../sources/codehost-a/fake-pulls.js";
import { type BinInstall, BOT, deliver, type Example, example, installBin, startChatCapture } from "./bin-setup.js";
import { filesText, type Host, REPO, startHost, TOKEN, watchCommandLines } from "./repo-setup.js";

// The whole of an issue's life through the `errand` bin (build it first: npm run build -w controller).

const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

/** `errand run` on the installation, and a second connection to its store to watch the runs. */
async function startBin(bin: BinInstall): Promise<{ cli: CliRun; port: number; store: Store }> {
  const cli = runCli(["run", "--config", bin.configFile]);
  const port = await cli.ready;
  const store = await createSqliteStore({ path: join(bin.dir, "errand.db") });
  stores.push(store);
  return { cli, port, store };
}

/** The runs of issue `n`, oldest first, once `count` exist and all ended. */
function ended(store: Store, n: number, count: number): Promise<TaskRun[]> {
  return eventually(
    `${count} ended runs of issue #${n}`,
    async () => {
      const runs = await store.listRuns({ ticket: { source: "codehost_a", id: String(n) }, limit: 100 });
      if (runs.length !== count || !runs.every((r) => isTerminal(r.state))) return undefined;
      return runs.sort((a, b) => a.createdAt - b.createdAt);
    },
    30_000,
  );
}

/** The vendor's `issues.labeled` example for issue `n` of the host's repository, labeled `label`. */
function labeled(host: Host, n: number, title: string, label = "errand"): Example {
  const p = example("issues", "labeled");
  Object.assign(p.issue, { number: n, title, body: "The README says 'teh'.", html_url: issueUrl(n) });
  p.label.name = label;
  Object.assign(p.repository, { name: "app", full_name: "acme/app", html_url: `${host.git.url}/acme/app` });
  p.repository.owner.login = "acme";
  return p;
}

const issueUrl = (n: number) => `https://codehost-a.test/acme/app/issues/${n}`;

/** A comment on pull request `pr`: on a line of its diff, or (`issue_comment`) on its conversation. */
function onPull(event: "pull_request_review_comment" | "issue_comment", pr: FakePull, body: string, login: string) {
  const p = example(event, "created");
  Object.assign(p.repository, { name: "app", full_name: "acme/app" });
  p.repository.owner.login = "acme";
  const pull = p.pull_request ?? p.issue;
  Object.assign(pull, { number: pr.number, html_url: pr.html_url });
  if (p.pull_request) pull.head.ref = pr.head;
  else pull.pull_request = { html_url: pr.html_url, url: `https://api.test/repos/acme/app/pulls/${pr.number}` };
  Object.assign(p.comment, { body, author_association: "COLLABORATOR", path: "README.md", line: 1 });
  p.comment.user.login = login;
  return p;
}

const accepted = (n: number) => ({ status: 200, json: { status: "accepted", tickets: [String(n)] } });
const ignored = (reason: string) => ({
  status: 200,
  json: { status: "ignored", reason: expect.stringContaining(reason) },
});

async function cliOut(args: string[]): Promise<string> {
  const c = runCli(args);
  expect(await c.exited).toBe(0);
  return c.stdout();
}

describe("an issue to a reviewed pull request, through `errand run`, real git and the code host A fake", () => {
  it("label → draft pull request; a collaborator's @errand → a follow-up commit on it; the token is nowhere", async () => {
    const host = await startHost();
    const issue = host.api.repo.add({ title: "Fix the README's typo", labels: ["errand"] });
    const chat = await startChatCapture();
    const bin = await installBin(host, TOKEN, chat.url, ["MODE=token", "SLEEP=1"]);
    const watch = watchCommandLines();
    const { cli, port, store } = await startBin(bin);

    // (1) The trigger label: a run that clones, lets the agent commit, pushes and opens a draft pull request.
    expect(await deliver(port, "issues", labeled(host, issue.number, issue.title))).toEqual(accepted(issue.number));
    const [first] = await ended(store, issue.number, 1);
    expect(first?.state).toBe("Succeeded");
    const branch = `errand/${issue.number}-fix-the-readme-s-typo`;
    expect(host.git.log(REPO, branch)).toEqual(["Fix the README", "initial"]);
    expect(host.pulls.pulls).toHaveLength(1);
    const pr = host.pulls.pulls[0] as FakePull;
    expect(pr).toMatchObject({ head: branch, base: "main", draft: true, title: "Fix the README's typo" });
    expect(pr.body).toContain(`[ticket ${issue.number}](${issueUrl(issue.number)})`);
    expect(pr.body).toContain(`Closes #${issue.number}`);
    expect(pr.body).toContain("given: yes, token: [redacted]");
    expect(pr.body).toContain("| Cost | $0.12 |");
    expect(pr.body).toContain("| Tokens | 1200 in, 300 out |");
    expect(pr.body).toMatch(/\| Duration \| \d+ s \|/);
    expect(first?.result?.pullRequestUrl).toBe(pr.html_url);

    // (3) The bot's own comment never starts a run.
    expect(await deliver(port, "issue_comment", onPull("issue_comment", pr, "@errand done", BOT))).toEqual(
      ignored("the agent's own login"),
    );
    // (2) A collaborator's mention on a line of the diff: a follow-up on the same branch...
    const review = onPull("pull_request_review_comment", pr, "@errand fix the other typo too", "alice");
    expect(await deliver(port, "pull_request_review_comment", review)).toEqual(accepted(issue.number));
    // ...and (3) a second one while it is active is refused, with the reason.
    const again = onPull("issue_comment", pr, "@errand and the title", "alice");
    expect(await deliver(port, "issue_comment", again)).toEqual(
      ignored("a run is already active for this pull request"),
    );
    const [, follow] = await ended(store, issue.number, 2);
    expect(follow).toMatchObject({ state: "Succeeded", parentRunId: first?.id, branch, attempt: 2 });
    expect(follow?.followUp?.comments).toEqual([
      { author: "alice", body: "@errand fix the other typo too", path: "README.md", line: 1 },
    ]);
    expect(host.git.log(REPO, branch)).toEqual(["Fix the README", "Fix the README", "initial"]);
    expect(host.pulls.pulls).toHaveLength(1);
    expect(follow?.result?.pullRequestUrl).toBe(pr.html_url);
    const shown = await cliOut(["runs", "show", String(follow?.id), "--config", bin.configFile]);
    expect(shown).toContain("Follow-ups");
    expect(shown).toContain(String(first?.id));
    expect(shown).toContain("follow-up on review comment by alice");

    // The token: in no command line, answer, message, log or byte the controller kept.
    const commandLines = watch.stop();
    expect(commandLines.some((line) => line.includes("git") && line.includes("clone"))).toBe(true);
    expect(commandLines.filter((line) => line.includes(TOKEN))).toEqual([]);
    const json = await cliOut(["runs", "show", String(follow?.id), "--json", "--config", bin.configFile]);
    expect(json).toContain(pr.html_url);
    expect(json).not.toContain(TOKEN);
    const metrics = await (await fetch(`http://127.0.0.1:${bin.opsPort}/metrics`)).text();
    expect(metrics).toContain("errand_");
    expect(metrics).not.toContain(TOKEN);
    expect(chat.bodies.length).toBeGreaterThan(0);
    expect(chat.bodies.join("\n")).not.toContain(TOKEN);
    const comments = issue.comments.map((c) => c.body);
    expect(comments.length).toBeGreaterThan(0);
    expect(comments.join("\n")).not.toContain(TOKEN);
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toBe(0);
    // Each run's comment on the issue ends with its outcome and the pull request (written at the latest on shutdown).
    expect(issue.comments.map((c) => c.body.includes(pr.html_url))).toEqual([true, true]);
    expect(cli.stderr()).toContain("follow-up run queued");
    expect(cli.stderr() + cli.stdout()).not.toContain(TOKEN);
    await store.close();
    stores.length = 0;
    expect(filesText(bin.dir)).toContain(first?.id);
    expect(filesText(bin.dir)).not.toContain(TOKEN);
  });

  it("a wrong token fails the clone with a one-line reason, and is not retried", async () => {
    const host = await startHost();
    const issue = host.api.repo.add({ title: "Fix it", labels: ["errand"] });
    const chat = await startChatCapture();
    const bin = await installBin(host, "ghp_wrongTokenForTests0123456789abcdef", chat.url, []);
    const { port, store } = await startBin(bin);
    expect(await deliver(port, "issues", labeled(host, issue.number, issue.title))).toEqual(accepted(issue.number));
    const [run] = await ended(store, issue.number, 1);
    expect(run?.state).toBe("Failed");
    expect(run?.reason).toMatch(
      /^clone failed: code host answered 401 for http:\/\/127\.0\.0\.1:\d+\/acme\/app: check repositories\.codehost_a\.token_secret$/,
    );
    await new Promise((r) => setTimeout(r, 1000));
    expect(await store.listRuns({ ticket: { source: "codehost_a", id: String(issue.number) } })).toHaveLength(1);
    // git asks once without a credential, once with it: one clone.
    expect(host.git.requests.filter((r) => r.path === "/info/refs")).toHaveLength(2);
  });
});
