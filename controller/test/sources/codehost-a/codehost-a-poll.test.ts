import { describe, expect, it } from "vitest";
import { createCodehostASource } from "../../../src/vendors/codehost-a/codehost-a-webhook.js";
import { adapterFor, fake } from "./setup.js";

describe("code host A adapter: poll", () => {
  it("applies the rules and says in words why each other issue is skipped", async () => {
    const f = await fake({ labels: ["agent", "needs, triage", "wontfix", "agent-in-progress", "agent-failed"] });
    const ready = f.repo.add({ title: "Ready", labels: ["agent", "needs, triage"] });
    const excluded = f.repo.add({ labels: ["agent", "needs, triage", "wontfix"] });
    const failed = f.repo.add({ labels: ["agent", "needs, triage", "agent-failed"] });
    const running = f.repo.add({ labels: ["agent", "needs, triage", "agent-in-progress"] });
    const pull = f.repo.add({ labels: ["agent", "needs, triage"], isPullRequest: true });
    // A label with a comma cannot go into the host's comma-separated filter: the rules check it.
    const halfLabelled = f.repo.add({ labels: ["agent"] });
    f.repo.add({ labels: ["agent", "needs, triage"], state: "closed" });
    f.repo.add({ labels: [] });
    const { adapter, ctx } = adapterFor(f, { labels: ["agent", "needs, triage"] });
    await adapter.prepare(ctx);
    const verdicts = Object.fromEntries((await adapter.poll(ctx)).map((c) => [c.ticket.id, c.skip ?? "pick up"]));
    expect(verdicts).toEqual({
      [ready.number]: "pick up",
      [excluded.number]: 'carries the excluded label "wontfix" (ticketing.config.exclude_labels)',
      [failed.number]:
        'carries the failed label "agent-failed": a run failed, so it is not picked up again (errand runs retry starts it)',
      [running.number]: 'carries the in-progress label "agent-in-progress": a run is under way',
      [pull.number]: "a pull request, not an issue (the issues API lists both)",
      [halfLabelled.number]: 'lacks the trigger label "needs, triage" (ticketing.config.labels)',
    });
    const list = f.requests.find((r) => r.path.includes("/issues?"));
    expect(new URL(list?.path ?? "", f.url).searchParams.get("labels")).toBe("agent");
    expect(new URL(list?.path ?? "", f.url).searchParams.get("state")).toBe("open");
  });

  it("asks the host for open issues carrying every trigger label", async () => {
    const f = await fake();
    const both = f.repo.add({ labels: ["agent", "bug"] });
    f.repo.add({ labels: ["agent"] });
    f.repo.add({ labels: ["bug"] });
    const { adapter, ctx } = adapterFor(f, { labels: ["agent", "bug"] });
    const candidates = await adapter.poll(ctx);
    expect(candidates.map((c) => [c.ticket.id, c.skip])).toEqual([[String(both.number), undefined]]);
  });

  it("makes the same ticket as the webhook intake for the same issue", async () => {
    const f = await fake();
    const issue = f.repo.add({ title: "Checkout fails", body: null, labels: ["bug", "agent"] });
    const { adapter, ctx } = adapterFor(f);
    const [polled] = await adapter.poll(ctx);
    const body = Buffer.from(JSON.stringify(f.repo.webhookPayload(issue, "labeled")));
    const [hooked] = createCodehostASource("s").map(body, "application/json", { "x-github-event": "issues" }).tickets;
    expect(polled?.ticket).toEqual({
      id: String(issue.number),
      title: "Checkout fails",
      description: "",
      ticketType: "issue",
      repoUrl: "https://codehost-a.test/acme/shop",
      externalUrl: `https://codehost-a.test/acme/shop/issues/${issue.number}`,
      labels: ["bug", "agent"],
      source: "codehost_a",
    });
    const { rawEvent: _raw, ...sameFields } = hooked ?? { rawEvent: undefined };
    expect(polled?.ticket).toEqual(sameFields);
  });

  it("reads every page, following the host's Link header", async () => {
    const f = await fake();
    f.maxPerPage = 2;
    for (let i = 0; i < 5; i++) f.repo.add({ labels: ["agent"] });
    const { adapter, ctx } = adapterFor(f);
    const ids = (await adapter.poll(ctx)).map((c) => c.ticket.id);
    expect(ids).toEqual(["5", "4", "3", "2", "1"]);
    const pages = f.requests.filter((r) => r.path.includes("/issues"));
    expect(pages.map((r) => r.path.split("?")[0])).toEqual([
      "/repos/acme/shop/issues",
      "/repositories/4242/issues",
      "/repositories/4242/issues",
    ]);
    expect(pages.map((r) => new URL(r.path, f.url).searchParams.get("page"))).toEqual([null, "2", "3"]);
  });

  it("prepares on the first poll when prepare was not called", async () => {
    const f = await fake();
    f.repo.add({ labels: ["agent"] });
    const { adapter, ctx } = adapterFor(f);
    expect(await adapter.poll(ctx)).toHaveLength(1);
    expect(f.requests.map((r) => r.path.split("?")[0])).toEqual([
      "/repos/acme/shop",
      "/repos/acme/shop/labels",
      "/repos/acme/shop/issues",
    ]);
  });
});
