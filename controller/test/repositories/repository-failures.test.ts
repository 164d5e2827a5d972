import { describe, expect, it } from "vitest";
import { createHarness, finished, postTicket, ticketBody } from "../controller/harness.js";
import { REPO, repoHarness, repositoriesYaml, startHost, startWith } from "./repo-setup.js";

const clone = (url: string) => `${url}/${REPO}`;

describe("runs in a real repository that fail: one line naming the cause, never retried", () => {
  it("a wrong token fails the clone with the reason, once: the engine never starts and nothing is retried", async () => {
    const host = await startHost();
    const h = repoHarness(repositoriesYaml(host));
    const c = await startWith(h, host, "ghp_wrongTokenForTests0123456789abcdef");
    const { id, body } = ticketBody({ repo_url: clone(host.git.url) });
    await postTicket(c.webhookPort, body);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Failed");
    expect(run.reason).toMatch(
      /^clone failed: code host answered 401 for http:\/\/127\.0\.0\.1:\d+\/acme\/app\.git: check repositories\.codehost_a\.token_secret$/,
    );
    expect(h.executions()).toEqual([]);
    await new Promise((r) => setTimeout(r, 500));
    const store = c.controller.store;
    expect((await store.listRuns({ ticket: { source: "generic", id } })).map((r) => r.state)).toEqual(["Failed"]);
    // git asks once without a credential, once with it: one clone.
    expect(host.git.requests.filter((r) => r.path === "/info/refs")).toHaveLength(2);
  });

  it("a repository the code host does not have fails the clone naming it", async () => {
    const host = await startHost();
    const c = await startWith(repoHarness(repositoriesYaml(host)), host);
    const { id, body } = ticketBody({ repo_url: `${host.git.url}/acme/missing.git` });
    await postTicket(c.webhookPort, body);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Failed");
    expect(run.reason).toMatch(
      /^clone failed: code host answered 404 for http:\/\/127\.0\.0\.1:\d+\/acme\/missing\.git/,
    );
  });

  it("a push the code host refuses ends the run Failed with the reason; no pull request", async () => {
    const host = await startHost();
    host.git.readOnly = true;
    const c = await startWith(repoHarness(repositoriesYaml(host)), host);
    const { id, body } = ticketBody({ repo_url: clone(host.git.url) });
    await postTicket(c.webhookPort, body);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Failed");
    expect(run.reason).toMatch(/^push failed: .*403.* \(branch errand\/.+ of acme\/app\)$/);
    expect(host.pulls.pulls).toEqual([]);
  });

  it("a pull request the code host refuses ends the run Failed with its answer; the branch stays pushed", async () => {
    const host = await startHost();
    host.pulls.refuseCreate = 403;
    const c = await startWith(repoHarness(repositoriesYaml(host)), host);
    const { id, body } = ticketBody({ title: "Refused", repo_url: clone(host.git.url) });
    await postTicket(c.webhookPort, body);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Failed");
    expect(run.reason).toMatch(/^pull request failed: code host answered 403 for acme\/app /);
    expect(host.git.log(REPO, `errand/${id}-refused`)).toEqual(["Fix the README", "initial"]);
  });

  it("a repository outside guardrails.allowed_repos is refused before any clone", async () => {
    const host = await startHost();
    const h = createHarness({
      engine: "ok.sh",
      guardrails: "  allowed_repos: [https://github.com/acme/*]\n",
      extra: repositoriesYaml(host),
    });
    const c = await startWith(h, host);
    const { id, body } = ticketBody({ repo_url: clone(host.git.url) });
    await postTicket(c.webhookPort, body);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Refused");
    expect(host.git.requests).toEqual([]);
  });
});
