import { startSink } from "@errand/channel-sdk/testing";
import { describe, expect, it } from "vitest";
import { eventually, finished, postTicket, ticketBody } from "../controller/harness.js";
import { filesText, REPO, repoHarness, repositoriesYaml, startHost, startWith, TOKEN } from "./repo-setup.js";

const clone = (url: string) => `${url}/${REPO}`;

describe("a run with a GitHub App's installation tokens", () => {
  it("clones with one token and pushes with a fresh one when the first expired while the agent worked", async () => {
    const host = await startHost({ app: true });
    const app = host.app as NonNullable<typeof host.app>;
    app.lifetimeMs = 2_000;
    const c = await startWith(repoHarness(repositoriesYaml(host), { SLEEP: "2.5" }), host);
    const { id, body } = ticketBody({ title: "App run", repo_url: clone(host.git.url) });
    await postTicket(c.webhookPort, body);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Succeeded");
    expect(host.git.log(REPO, `errand/${id}-app-run`)).toEqual(["Fix the README", "initial"]);
    expect(host.pulls.pulls).toHaveLength(1);
    // The clone's token had expired by the push: the push and the pull request used a later one.
    const used = (service: string) =>
      host.git.requests
        .filter((r) => r.service === service && r.status === 200)
        .map(
          (r) =>
            Buffer.from(r.authorization?.replace(/^Basic /, "") ?? "", "base64")
              .toString()
              .split(":")[1],
        );
    const [cloneToken] = used("git-upload-pack");
    const [pushToken] = used("git-receive-pack");
    expect(cloneToken).toMatch(/^ghs_/);
    expect(pushToken).toMatch(/^ghs_/);
    expect(pushToken).not.toBe(cloneToken);
    expect(app.valid(cloneToken ?? "")).toBe(false);
    expect(host.pulls.tokens).not.toContain(cloneToken);
    const tokens = app.issued.map((t) => t.token);
    const shown = JSON.stringify(await c.controller.store.getRun(run.id)) + c.logs.join("\n");
    expect(tokens.filter((t) => shown.includes(t))).toEqual([]);
  });
});

describe("the token handed to the agent (engines.<name>.repository_token_env)", () => {
  it("the agent gets it under each listed variable; what it prints of it is masked in progress, result and log", async () => {
    const host = await startHost();
    const sink = await startSink();
    const channel = `notifications:\n  channels:\n    - backend: webhook_post\n      config: { url: "${sink.url}/hook" }\n`;
    const h = repoHarness(repositoriesYaml(host) + channel, { MODE: "token" });
    const c = await startWith(h, host, TOKEN, (config) => {
      const fixture = config.engines.byName.fixture;
      if (fixture !== undefined) fixture.repositoryTokenEnv = ["GH_TOKEN", "GITHUB_TOKEN"];
    });
    const { id, body } = ticketBody({ repo_url: clone(host.git.url) });
    await postTicket(c.webhookPort, body);
    const run = await finished(c.controller.store, id);
    expect(run.state).toBe("Succeeded");
    expect(run.result?.summary).toBe("given: yes, token: [redacted]");
    expect(host.pulls.pulls[0]?.body).toContain("given: yes, token: [redacted]");
    expect(c.logs.join("\n")).not.toContain(TOKEN);
    // The chat messages (a webhook channel): the progress line and the completion carry the mask, not the token.
    await eventually("the completion message", () =>
      sink.requests.some((r) => (r.json as { event?: string } | undefined)?.event === "complete") ? true : undefined,
    );
    const messages = JSON.stringify(sink.requests.map((r) => r.json));
    expect(messages).toContain("[redacted]");
    expect(messages).not.toContain(TOKEN);
    await c.stop();
    await sink.close();
    const files = filesText(h.dir);
    expect(files).toContain("GH_TOKEN=[redacted]");
    expect(files).not.toContain(TOKEN);
  });

  it("without it the agent gets no token", async () => {
    const host = await startHost();
    const c = await startWith(repoHarness(repositoriesYaml(host), { MODE: "token" }), host);
    const { id, body } = ticketBody({ repo_url: clone(host.git.url) });
    await postTicket(c.webhookPort, body);
    const run = await finished(c.controller.store, id);
    expect(run.result?.summary).toBe("given: no, token: ");
  });
});
