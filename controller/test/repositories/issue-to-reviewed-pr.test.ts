import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import type { TaskRun } from "../../src/runs/task-run.js";
import { runCli } from "../helpers/cli.js";
import type { FakePull } from "../sources/codehost-a/fake-pulls.js";
import type { FakeIssue } from "../sources/codehost-a/fake-repository.js";
import { type BinInstall, BOT, ended, installBin, startBin, startChatCapture } from "./bin-setup.js";
import { deliver, issueUrl, labeled, onPull } from "./codehost-a-events.js";
import { filesText, REPO, startHost, TOKEN, watchCommandLines } from "./repo-setup.js";

// The whole of an issue's life through the `errand` bin (build it first: npm run build -w controller).

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

/** The pull request the first run opened: a draft from the run's branch whose body links the issue and sums the run up. */
function expectPullRequest(pr: FakePull | undefined, issue: FakeIssue, branch: string): FakePull {
  expect(pr).toMatchObject({ head: branch, base: "main", draft: true, title: issue.title });
  const body = String(pr?.body);
  expect(body).toContain(`[ticket ${issue.number}](${issueUrl(issue.number)})`);
  expect(body).toContain(`Closes #${issue.number}`);
  // The agent put the token in its summary: the pull request, public, shows it masked.
  expect(body).toContain("given: yes, token: [redacted]");
  expect(body).toContain("| Cost | $0.12 |");
  expect(body).toContain("| Tokens | 1200 in, 300 out |");
  expect(body).toMatch(/\| Duration \| \d+ s \|/);
  return pr as FakePull;
}

/** What the agent got: the issue in a checkout; then the review comment with its file and line, on the branch. */
function expectPrompts(file: string, issue: FakeIssue, pr: FakePull): void {
  const [, first = "", follow = ""] = readFileSync(file, "utf8").split(/^=== run_\w+$/m);
  expect(first).toContain(`Ticket ${issue.number} (issue): ${issue.title}`);
  expect(first).toContain("The README says 'teh'.");
  expect(first).toContain("Do not push and do not open a pull request");
  expect(follow).toContain(`Pull request: ${pr.html_url}\nBranch: ${pr.head}`);
  expect(follow).toContain("- alice on README.md line 1: @errand fix the other typo too");
  expect(follow).toContain("The README says 'teh'.");
}

/** `errand runs show` of the follow-up: the chain back to the run it follows, and its trigger. */
async function expectChain(bin: BinInstall, first: TaskRun, follow: TaskRun, pr: FakePull): Promise<void> {
  const shown = await cliOut(["runs", "show", follow.id, "--config", bin.configFile]);
  expect(shown).toContain(`Follow-ups\n  ← ${first.id}  Succeeded  ${pr.html_url}`);
  expect(shown).toContain(`● ${follow.id}  Succeeded  follow-up on review comment by alice  ${pr.html_url}`);
  const json = await cliOut(["runs", "show", follow.id, "--json", "--config", bin.configFile]);
  expect(json).toContain(pr.html_url);
  expect(json).not.toContain(TOKEN);
}

/** What the controller answers and sends while running: /metrics, chat_b's messages, the issue's comments. */
async function expectNoTokenSent(bin: BinInstall, chat: string[], issue: FakeIssue): Promise<void> {
  const metrics = await (await fetch(`http://127.0.0.1:${bin.opsPort}/metrics`)).text();
  expect(metrics).toContain("errand_");
  expect(metrics).not.toContain(TOKEN);
  expect(chat.join("\n")).toContain("redacted"); // the masked token (chat_b escapes its brackets)
  expect(chat.join("\n")).not.toContain(TOKEN);
  expect(issue.comments).toHaveLength(2);
  expect(issue.comments.map((c) => c.body).join("\n")).not.toContain(TOKEN);
}

// Bounds against a hang of real processes on a shared machine, not speed targets.
describe("an issue to a reviewed pull request, through `errand run`, real git and the code host A fake", {
  timeout: 90_000,
}, () => {
  it("label → draft pull request; a collaborator's @errand → a follow-up commit on it; the token is nowhere", async () => {
    const host = await startHost();
    const issue = host.api.repo.add({ title: "Fix the README's typo", labels: ["errand"] });
    const chat = await startChatCapture();
    const prompts = join(tempDir("errand-prompts-"), "prompts.txt");
    const bin = await installBin(host, TOKEN, chat.url, ["MODE=token", "SLEEP=1", `PROMPT_LOG=${prompts}`]);
    const watch = watchCommandLines();
    const { cli, port, store } = await startBin(bin);

    // (1) The trigger label: a run that clones, lets the agent commit, pushes and opens a draft pull request.
    expect(await deliver(port, "issues", labeled(host, issue.number, issue.title))).toEqual(accepted(issue.number));
    const [first] = await ended(store, issue.number, 1);
    expect(first?.state).toBe("Succeeded");
    const branch = `errand/${issue.number}-fix-the-readme-s-typo`;
    expect(host.git.log(REPO, branch)).toEqual(["Fix the README", "initial"]);
    expect(host.pulls.pulls).toHaveLength(1);
    const pr = expectPullRequest(host.pulls.pulls[0], issue, branch);
    expect(first?.result?.pullRequestUrl).toBe(pr.html_url);

    // (3) The bot's own comment never starts a run.
    const own = onPull("issue_comment", pr, "@errand done", BOT);
    expect(await deliver(port, "issue_comment", own)).toEqual(ignored("the agent's own login"));
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
    expect(follow?.result?.pullRequestUrl).toBe(pr.html_url);
    // One pull request, two commits on its branch.
    expect(host.pulls.pulls).toHaveLength(1);
    expect(host.git.log(REPO, branch)).toEqual(["Fix the README", "Fix the README", "initial"]);
    expectPrompts(prompts, issue, pr);
    await expectChain(bin, first as TaskRun, follow as TaskRun, pr);

    // The token (which the agent printed): in no command line, answer, message, log or byte the controller kept.
    const commandLines = watch.stop();
    expect(commandLines.some((line) => line.includes("git") && line.includes("clone"))).toBe(true);
    expect(commandLines.filter((line) => line.includes(TOKEN))).toEqual([]);
    await expectNoTokenSent(bin, chat.bodies, issue);
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toBe(0);
    // Each run's comment on the issue ends with its outcome and the pull request (written at the latest on shutdown).
    expect(issue.comments.map((c) => c.body.includes(pr.html_url))).toEqual([true, true]);
    expect(cli.stderr()).toContain("follow-up run queued");
    expect(cli.stderr() + cli.stdout()).not.toContain(TOKEN);
    expect(filesText(bin.dir)).toContain(String(first?.id));
    expect(filesText(bin.dir)).not.toContain(TOKEN);
  });

  it("a collaborator's @errand on the pull request's conversation: a follow-up on its head branch, read from the host", async () => {
    const host = await startHost();
    const issue = host.api.repo.add({ title: "Conversation", labels: ["errand"] });
    const bin = await installBin(host, TOKEN, (await startChatCapture()).url, []);
    const { port, store } = await startBin(bin);
    expect(await deliver(port, "issues", labeled(host, issue.number, issue.title))).toEqual(accepted(issue.number));
    await ended(store, issue.number, 1);
    const pr = host.pulls.pulls[0] as FakePull;
    const comment = onPull("issue_comment", pr, "Thanks! @Errand, add a changelog entry.", "alice");
    expect(await deliver(port, "issue_comment", comment)).toEqual(accepted(issue.number));
    const [, follow] = await ended(store, issue.number, 2);
    expect(follow).toMatchObject({ state: "Succeeded", branch: pr.head, followUp: { trigger: "issue_comment" } });
    const read = host.api.requests.filter((r) => r.method === "GET" && r.path === `/repos/acme/app/pulls/${pr.number}`);
    expect(read.map((r) => r.status)).toEqual([200]);
    expect(host.git.log(REPO, pr.head)).toEqual(["Fix the README", "Fix the README", "initial"]);
    expect(host.pulls.pulls).toHaveLength(1);
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
