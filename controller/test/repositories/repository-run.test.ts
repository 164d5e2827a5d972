import { describe, expect, it } from "vitest";
import { finished, postTicket, ticketBody } from "../controller/harness.js";
import {
  filesText,
  REPO,
  repoHarness,
  repositoriesYaml,
  startHost,
  startWith,
  TOKEN,
  watchCommandLines,
} from "./repo-setup.js";

const clone = (url: string) => `${url}/${REPO}`;

describe("a run in a real repository (local backend, git over HTTP, the code host A fake)", () => {
  it("clones, lets the agent commit, pushes and opens the pull request; the token is nowhere to be read", async () => {
    const host = await startHost();
    const h = repoHarness(repositoriesYaml(host), { SLEEP: "0.3" });
    const c = await startWith(h, host);
    const watch = watchCommandLines();
    const { id, body } = ticketBody({ title: "Fix the README's typo!", repo_url: clone(host.git.url) });
    expect((await postTicket(c.webhookPort, body)).status).toBe(200);
    const run = await finished(c.controller.store, id);
    const commandLines = watch.stop();

    expect(run.state).toBe("Succeeded");
    const branch = `errand/${id}-fix-the-readme-s-typo`;
    expect(host.git.log(REPO, branch)).toEqual(["Fix the README", "initial"]);
    expect(host.git.show(REPO, branch, "README.md")).toContain("Fixed by the agent.");
    expect(host.git.log(REPO, "main")).toEqual(["initial"]);
    expect(host.pulls.pulls).toHaveLength(1);
    const pr = host.pulls.pulls[0];
    expect(pr).toMatchObject({ head: branch, base: "main", title: "Fix the README's typo!", draft: true });
    expect(pr?.body).toContain("Fixed the README.");
    expect(pr?.body).toContain("$0.12");
    expect(pr?.body).toContain("1200 in, 300 out");
    expect(run.result?.pullRequestUrl).toBe(pr?.html_url);
    expect(run.branch).toBe(branch);

    // Git got the token from the askpass script only: never in a URL or an argument.
    expect(host.git.requests.some((r) => r.service === "git-receive-pack" && r.status === 200)).toBe(true);
    expect(commandLines.some((line) => line.includes("git") && line.includes("clone"))).toBe(true);
    expect(commandLines.filter((line) => line.includes(TOKEN))).toEqual([]);
    const metrics = await (await fetch(`http://127.0.0.1:${c.controller.ops.address?.port}/metrics`)).text();
    expect(metrics).not.toContain(TOKEN);
    expect(c.logs.join("\n")).not.toContain(TOKEN);
    expect(JSON.stringify(await c.controller.store.getRun(run.id))).not.toContain(TOKEN);
    await c.stop();
    // The run's log, the store's bytes, and what is left of the workspaces.
    expect(filesText(h.dir)).not.toContain(TOKEN);
  });

  it("no commits: Succeeded with the summary 'no changes' and no pull request (when_no_changes: succeed)", async () => {
    const host = await startHost();
    const c = await startWith(repoHarness(repositoriesYaml(host), { MODE: "none" }), host);
    const { id, body } = ticketBody({ repo_url: clone(host.git.url) });
    await postTicket(c.webhookPort, body);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Succeeded");
    expect(run.result?.summary).toMatch(/^no changes\n\nNothing to change\.$/);
    expect(run.result?.pullRequestUrl).toBe("");
    expect(host.pulls.pulls).toEqual([]);
    expect(host.git.requests.some((r) => r.service === "git-receive-pack")).toBe(false);
  });

  it("no commits with when_no_changes: fail ends the run Failed with the reason 'no changes'", async () => {
    const host = await startHost();
    const yaml = repositoriesYaml(host, "    pull_requests:\n      when_no_changes: fail\n");
    const c = await startWith(repoHarness(yaml, { MODE: "none" }), host);
    const { id, body } = ticketBody({ repo_url: clone(host.git.url) });
    await postTicket(c.webhookPort, body);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Failed");
    expect(run.reason).toContain("no changes");
  });

  it("a pull request the agent opened is recorded, not duplicated", async () => {
    const host = await startHost();
    const c = await startWith(repoHarness(repositoriesYaml(host), { MODE: "pr" }), host);
    const { id, body } = ticketBody({ repo_url: clone(host.git.url) });
    await postTicket(c.webhookPort, body);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Succeeded");
    expect(run.result?.pullRequestUrl).toBe("https://codehost-a.test/acme/app/pull/99");
    expect(host.pulls.pulls).toEqual([]);
  });

  it("a branch that already has an open pull request keeps it: the controller pushes and records that one", async () => {
    const host = await startHost();
    const c = await startWith(repoHarness(repositoriesYaml(host)), host);
    const { id, body } = ticketBody({ title: "Twice", repo_url: clone(host.git.url) });
    const branch = `errand/${id}-twice`;
    host.pulls.pulls.push({
      number: 1,
      title: "Earlier",
      body: "",
      head: branch,
      base: "main",
      draft: false,
      state: "open",
      html_url: "https://codehost-a.test/acme/app/pull/1",
    });
    await postTicket(c.webhookPort, body);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Succeeded");
    expect(run.result?.pullRequestUrl).toBe("https://codehost-a.test/acme/app/pull/1");
    expect(host.pulls.pulls).toHaveLength(1);
    expect(host.git.log(REPO, branch)).toEqual(["Fix the README", "initial"]);
  });

  it("without repositories.codehost_a the workspace starts empty, as before", async () => {
    const host = await startHost();
    const c = await startWith(repoHarness("", { MODE: "list" }), host);
    const { id, body } = ticketBody({ repo_url: clone(host.git.url) });
    await postTicket(c.webhookPort, body);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Succeeded");
    expect(run.result?.summary).toBe("workspace: []");
    expect(host.git.requests).toEqual([]);
  });
});
