import { describe, expect, it } from "vitest";
import { eventually } from "../../controller/harness.js";
import { hostASignature } from "../../helpers/sign.js";
import {
  changesOnce,
  finishedRun,
  HOOK_SECRET,
  harnessFor,
  pollingOf,
  runsOfIssue,
  startController,
  startControllerWith,
} from "./controller-setup.js";
import type { FakeCodehostA } from "./fake-codehost-a.js";
import type { FakeIssue } from "./fake-repository.js";
import { fake } from "./setup.js";

const PR = "https://github.com/acme/shop/pull/7";

async function postIssueEvent(
  port: number,
  f: FakeCodehostA,
  issue: FakeIssue,
): Promise<{ status: number; json: unknown }> {
  const body = JSON.stringify(f.repo.webhookPayload(issue, "labeled"));
  const response = await fetch(`http://127.0.0.1:${port}/webhooks/codehost-a`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "issues",
      "x-hub-signature-256": hostASignature(HOOK_SECRET, body),
    },
    body,
  });
  return { status: response.status, json: await response.json() };
}

describe("code host A through the controller", () => {
  it("a labelled issue gets one run; the in-progress label, the comment with the PR link and the label's removal appear in order", async () => {
    const f = await fake();
    const issue = f.repo.add({ title: "Fix checkout", labels: ["agent"] });
    const other = f.repo.add({ labels: ["agent", "wontfix"] });
    const h = harnessFor(f, "ok.sh");
    const c = await startController(h, f);
    const run = await finishedRun(c.controller.store, issue.number);
    expect(run.state).toBe("Succeeded");
    const changes = await changesOnce(f, issue.number, 3);
    expect(changes).toEqual([
      "+agent-in-progress",
      expect.stringMatching(
        /^comment: The agent opened a pull request: https:\/\/github\.com\/acme\/shop\/pull\/7\n\nFixed it\./,
      ),
      "-agent-in-progress",
    ]);
    expect(changes[1]).toContain(`<!-- errand:run ${run.id} -->`);
    await pollingOf(c).pollNow();
    await pollingOf(c).pollNow();
    expect(await runsOfIssue(c.controller.store, issue.number)).toHaveLength(1);
    expect(await runsOfIssue(c.controller.store, other.number)).toHaveLength(0);
    expect(h.executions()).toEqual([run.id]);
    expect(f.repo.changesOf(issue.number)).toHaveLength(3);
    expect(
      f.repo.issues
        .get(issue.number)
        ?.comments.map((cm) => cm.body)
        .join(),
    ).toContain(PR);
  });

  it("a failed run leaves the failed label, and the issue is not picked up again, not even by a controller with a new store", async () => {
    const f = await fake();
    const issue = f.repo.add({ labels: ["agent"] });
    const c = await startController(harnessFor(f, "crash.sh"), f);
    expect((await finishedRun(c.controller.store, issue.number)).state).toBe("Failed");
    expect(await changesOnce(f, issue.number, 3)).toEqual([
      "+agent-in-progress",
      "+agent-failed",
      "-agent-in-progress",
    ]);
    await pollingOf(c).pollNow();
    expect(await runsOfIssue(c.controller.store, issue.number)).toHaveLength(1);
    await c.stop();
    // A second installation (its own, empty store) polls the same repository: the label alone keeps the issue out.
    const h2 = harnessFor(f, "ok.sh");
    const c2 = await startController(h2, f);
    await pollingOf(c2).pollNow();
    expect(await runsOfIssue(c2.controller.store, issue.number)).toHaveLength(0);
    expect(h2.executions()).toEqual([]);
    expect(f.repo.changesOf(issue.number)).toHaveLength(3);
  });

  it("a webhook event and a poll for the same issue give one run, whichever comes first", async () => {
    const f = await fake();
    const h = harnessFor(f, "ok.sh");
    const c = await startController(h, f);
    const hooked = f.repo.add({ labels: ["agent"] });
    expect((await postIssueEvent(c.webhookPort, f, hooked)).status).toBe(200);
    await pollingOf(c).pollNow();
    const polled = f.repo.add({ labels: ["agent"] });
    await pollingOf(c).pollNow();
    expect((await postIssueEvent(c.webhookPort, f, polled)).status).toBe(200);
    for (const issue of [hooked, polled]) {
      await finishedRun(c.controller.store, issue.number);
      expect(await changesOnce(f, issue.number, 3)).toEqual([
        "+agent-in-progress",
        expect.stringMatching(/^comment: /),
        "-agent-in-progress",
      ]);
    }
    expect(await runsOfIssue(c.controller.store, hooked.number)).toHaveLength(1);
    expect(await runsOfIssue(c.controller.store, polled.number)).toHaveLength(1);
    expect(h.executions()).toHaveLength(2);
  });

  it("the webhook applies the poller's label rules: an issue they skip is acknowledged as ignored and not stored", async () => {
    const f = await fake();
    const c = await startController(harnessFor(f, "ok.sh"), f);
    const unlabelled = f.repo.add({ labels: ["bug"] });
    const excluded = f.repo.add({ labels: ["agent", "wontfix"] });
    const wanted = f.repo.add({ labels: ["agent"] });
    expect(await postIssueEvent(c.webhookPort, f, unlabelled)).toEqual({
      status: 200,
      json: {
        status: "ignored",
        reason: `issue #${unlabelled.number} lacks the trigger label "agent" (ticketing.config.labels)`,
      },
    });
    expect(await postIssueEvent(c.webhookPort, f, excluded)).toEqual({
      status: 200,
      json: {
        status: "ignored",
        reason: `issue #${excluded.number} carries the excluded label "wontfix" (ticketing.config.exclude_labels)`,
      },
    });
    expect(await postIssueEvent(c.webhookPort, f, wanted)).toEqual({
      status: 200,
      json: { status: "accepted", tickets: [String(wanted.number)] },
    });
    expect((await finishedRun(c.controller.store, wanted.number)).state).toBe("Succeeded");
    for (const skipped of [unlabelled, excluded]) {
      expect(await c.controller.store.getTicket({ source: "codehost_a", id: String(skipped.number) })).toBeUndefined();
      expect(f.repo.changesOf(skipped.number)).toEqual([]);
    }
    const requests = await c.controller.registry.getSingleMetric("errand_webhook_requests_total")?.get();
    const count = (outcome: string) =>
      requests?.values.find((v) => v.labels.source === "codehost_a" && v.labels.outcome === outcome)?.value;
    expect([count("ignored"), count("accepted")]).toEqual([2, 1]);
  });

  it("keeps running while the code host fails (hangs, then 500s), and catches up on its own", async () => {
    const f = await fake();
    const issue = f.repo.add({ labels: ["agent"] });
    const list = /^GET \/(repos\/acme\/shop|repositories\/4242)\/issues\?/;
    // The first poll's four attempts hang: it fails. The next poll's first two attempts answer 500; its third gets through.
    f.inject({ kind: "hang" }, { times: 4, match: list });
    f.inject({ kind: "error", status: 500 }, { times: 2, match: list });
    const h = harnessFor(f, "ok.sh", 1);
    const c = await startControllerWith(h, f, { secondMs: 1, requestTimeoutMs: 150 });
    const source = pollingOf(c);
    await eventually("a failed poll", () =>
      c.logs.some((l) => l.includes("poll failed; trying again later")) ? true : undefined,
    );
    expect(source.health()).toMatchObject({ ready: true });
    expect(source.health().detail).toMatch(
      /^failing \(1 in a row\): code host A did not answer the request to list the open issues \(no response: /,
    );
    const run = await finishedRun(c.controller.store, issue.number);
    expect(run.state).toBe("Succeeded");
    expect(c.logs.some((l) => l.includes("ticket source recovered"))).toBe(true);
    expect(await changesOnce(f, issue.number, 3)).toEqual([
      "+agent-in-progress",
      expect.stringMatching(/^comment: /),
      "-agent-in-progress",
    ]);
    const polls = await c.controller.registry.getSingleMetric("errand_source_polls_total")?.get();
    const errors = polls?.values.find((v) => v.labels.outcome === "error")?.value;
    expect(errors).toBe(1);
    expect(
      f.requests
        .filter((r) => list.test(`${r.method} ${r.path}`))
        .map((r) => r.status)
        .slice(0, 3),
    ).toEqual([500, 500, 200]);
    // Once a poll has seen the last label change, idle polls are answered 304.
    await source.pollNow();
    const before = f.requests.length;
    await source.pollNow();
    const lists = f.requests.slice(before).filter((r) => list.test(`${r.method} ${r.path}`));
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.map((r) => r.status)).toEqual(lists.map(() => 304));
  });

  it("starts while the code host is down, then checks the repository and catches up", async () => {
    const f = await fake();
    const issue = f.repo.add({ labels: ["agent"] });
    f.inject({ kind: "error", status: 503 }, { times: 4, match: /^GET \/repos\/acme\/shop$/ });
    const c = await startControllerWith(harnessFor(f, "ok.sh", 1), f, { secondMs: 1, requestTimeoutMs: 1000 });
    expect(pollingOf(c).health().detail).toBe(
      "failing (1 in a row): code host A did not answer the request to read the repository and its labels (503: Service Unavailable)",
    );
    expect((await finishedRun(c.controller.store, issue.number)).state).toBe("Succeeded");
    expect(f.requests.slice(0, 6).map((r) => `${r.status} ${r.path.split("?")[0]}`)).toEqual([
      "503 /repos/acme/shop",
      "503 /repos/acme/shop",
      "503 /repos/acme/shop",
      "503 /repos/acme/shop",
      "200 /repos/acme/shop",
      "200 /repos/acme/shop/labels",
    ]);
  });
});
