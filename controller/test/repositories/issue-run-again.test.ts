import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { runCli } from "../helpers/cli.js";
import type { FakePull } from "../sources/codehost-a/fake-pulls.js";
import { fakePulls } from "../sources/codehost-a/fake-reviews.js";
import { ended, installBin, startBin, startChatCapture } from "./bin-setup.js";
import { deliver, example, labeled } from "./codehost-a-events.js";
import { REPO, startHost, TOKEN } from "./repo-setup.js";

// What docs/first-real-repository.md promises after the first run, through `errand run` (build the bin first:
// npm run build -w controller).

// Bounds against a hang of real processes on a shared machine, not speed targets.
describe("an issue after its first run, through `errand run`", { timeout: 90_000 }, () => {
  it("a second label starts nothing; errand runs retry runs it again on its branch, into the same pull request", async () => {
    const host = await startHost();
    const issue = host.api.repo.add({ title: "Again", labels: ["errand"] });
    const prompts = join(tempDir("errand-prompts-"), "prompts.txt");
    const bin = await installBin(host, TOKEN, (await startChatCapture()).url, [`PROMPT_LOG=${prompts}`]);
    const { port, store } = await startBin(bin);
    expect((await deliver(port, "issues", labeled(host, issue.number, issue.title))).status).toBe(200);
    const [first] = await ended(store, issue.number, 1);
    const pr = host.pulls.pulls[0] as FakePull;

    // The ticket has a run: the label again (on the issue, made more precise) is answered 200 and starts nothing;
    // the issue's new text is stored, for the retry.
    const relabel = labeled(host, issue.number, issue.title);
    relabel.issue.body = "The README says 'teh' twice.";
    expect((await deliver(port, "issues", relabel)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await store.listRuns({ ticket: { source: "codehost_a", id: String(issue.number) } })).toHaveLength(1);

    const retry = runCli(["runs", "retry", String(first?.id), "--config", bin.configFile]);
    expect(await retry.exited).toBe(0);
    const [, again] = await ended(store, issue.number, 2);
    expect(again).toMatchObject({ state: "Succeeded", attempt: 2, branch: pr.head });
    expect(again?.result?.pullRequestUrl).toBe(pr.html_url);
    expect(host.git.log(REPO, pr.head)).toEqual(["Fix the README", "Fix the README", "initial"]);
    expect(host.pulls.pulls).toHaveLength(1);
    expect(readFileSync(prompts, "utf8").split(/^=== run_\w+$/m)[2]).toContain("The README says 'teh' twice.");
  });

  it("a review requesting changes starts a follow-up whose prompt has the review's text and its line comments", async () => {
    const host = await startHost();
    const issue = host.api.repo.add({ title: "Reviewed", labels: ["errand"] });
    const bin = await installBin(host, TOKEN, (await startChatCapture()).url, []);
    const { port, store } = await startBin(bin);
    await deliver(port, "issues", labeled(host, issue.number, issue.title));
    await ended(store, issue.number, 1);
    const pr = host.pulls.pulls[0] as FakePull;
    const line = { author: "alice", body: "Rename this.", path: "README.md", line: 1 };
    fakePulls(host.api.repo).set(pr.number, { ...pr, reviews: new Map([[55, [line]]]) });
    const review = example("pull_request_review", "submitted");
    Object.assign(review.repository, { name: "app", full_name: "acme/app" });
    review.repository.owner.login = "acme";
    Object.assign(review.pull_request, { number: pr.number, html_url: pr.html_url });
    review.pull_request.head.ref = pr.head;
    Object.assign(review.review, {
      id: 55,
      state: "changes_requested",
      body: "Please fix.",
      author_association: "MEMBER",
    });
    review.review.user.login = "alice";
    const answer = await deliver(port, "pull_request_review", review);
    expect(answer).toEqual({ status: 200, json: { status: "accepted", tickets: [String(issue.number)] } });
    const [, follow] = await ended(store, issue.number, 2);
    expect(follow).toMatchObject({ state: "Succeeded", branch: pr.head, followUp: { trigger: "review" } });
    expect(follow?.followUp?.comments).toEqual([{ author: "alice", body: "Please fix." }, line]);
    expect(host.git.log(REPO, pr.head)).toEqual(["Fix the README", "Fix the README", "initial"]);
    expect(host.pulls.pulls).toHaveLength(1);
  });
});
