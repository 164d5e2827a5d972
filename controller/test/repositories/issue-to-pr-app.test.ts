import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import type { FakeApp } from "../sources/codehost-a/fake-app-tokens.js";
import { ended, installBin, startBin, startChatCapture } from "./bin-setup.js";
import { deliver, labeled } from "./codehost-a-events.js";
import { filesText, REPO, startHost, watchCommandLines } from "./repo-setup.js";

// The first half of issue-to-reviewed-pr.test.ts with a GitHub App: tokens the controller makes, one expiring while
// the agent works (build the bin first: npm run build -w controller).

/** The password of a git request's Basic auth. */
const passwordOf = (authorization: string | undefined) =>
  Buffer.from(authorization?.replace(/^Basic /, "") ?? "", "base64")
    .toString()
    .split(":")
    .slice(1)
    .join(":");

// Bounds against a hang of real processes on a shared machine, not speed targets.
describe("an issue to a pull request with a GitHub App, through `errand run`", { timeout: 90_000 }, () => {
  it("clones with one installation token, pushes with a fresh one once it expired mid-run; no token is kept", async () => {
    const host = await startHost({ app: true });
    const app = host.app as FakeApp;
    app.lifetimeMs = 2_000;
    const issue = host.api.repo.add({ title: "App run", labels: ["errand"] });
    const chat = await startChatCapture();
    const bin = await installBin(host, "unused", chat.url, ["MODE=token", "SLEEP=2.5"]);
    const watch = watchCommandLines();
    const { cli, port, store } = await startBin(bin);
    expect((await deliver(port, "issues", labeled(host, issue.number, issue.title))).status).toBe(200);
    const [run] = await ended(store, issue.number, 1);
    const commandLines = watch.stop();

    expect(run?.state).toBe("Succeeded");
    const branch = `errand/${issue.number}-app-run`;
    expect(host.git.log(REPO, branch)).toEqual(["Fix the README", "initial"]);
    expect(host.pulls.pulls).toMatchObject([{ head: branch, draft: true }]);
    expect(run?.result?.pullRequestUrl).toBe(host.pulls.pulls[0]?.html_url);
    // The clone's token had expired by the push, which went through with a fresh one.
    const granted = host.git.requests.filter((r) => r.status === 200 && r.path === "/info/refs");
    const clone = passwordOf(granted.find((r) => r.service === "git-upload-pack")?.authorization);
    const push = passwordOf(granted.find((r) => r.service === "git-receive-pack")?.authorization);
    expect(app.issued.map((t) => t.token)).toEqual(expect.arrayContaining([clone, push]));
    expect(push).not.toBe(clone);
    expect(app.valid(clone)).toBe(false);

    const shown = runCli(["runs", "show", String(run?.id), "--json", "--config", bin.configFile]);
    expect(await shown.exited).toBe(0);
    const metrics = await (await fetch(`http://127.0.0.1:${bin.opsPort}/metrics`)).text();
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toBe(0);
    const seen = [commandLines, shown.stdout(), metrics, chat.bodies, issue.comments.map((c) => c.body), cli.stderr()]
      .flat()
      .join("\n");
    expect(shown.stdout()).toContain(branch);
    // The issue's progress comment, written with the App's tokens too, ends with the outcome and the pull request.
    expect(issue.comments.map((c) => c.body.includes(String(run?.result?.pullRequestUrl)))).toEqual([true]);
    expect(chat.bodies.join("\n")).toContain("redacted");
    const kept = filesText(bin.dir);
    expect(kept).toContain(String(run?.id));
    for (const { token } of app.issued) {
      expect(seen).not.toContain(token);
      expect(kept).not.toContain(token);
    }
  });
});
