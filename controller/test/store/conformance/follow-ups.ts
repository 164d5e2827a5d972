import { describe, expect, it } from "vitest";
import type { FollowUpContext } from "../../../src/runs/follow-up.js";
import type { TaskRun } from "../../../src/runs/task-run.js";
import type { Store } from "../../../src/store/store.js";
import { expectCode, type OpenStore, runIn, ticket } from "./support.js";

const UNKNOWN = "run_00000000000000000000000000";

function context(url: string): FollowUpContext {
  return {
    pullRequest: { number: 7, url, branch: "errand/t-fix" },
    trigger: "review",
    reviewState: "changes_requested",
    comments: [{ author: "alice", body: "rename this", path: "src/a.ts", line: 3 }],
  };
}

/** A finished run that opened `url`, as the loop ends it. */
async function openedPullRequest(store: Store, url: string, id?: string): Promise<TaskRun> {
  const run = await runIn(store, "Running", id);
  const result = { success: true, summary: "done", pullRequestUrl: url, failureReason: "" };
  const ended = await store.transition({
    runId: run.id,
    from: ["Running"],
    to: "Succeeded",
    reason: "ok",
    patch: { result },
  });
  if (!ended) throw new Error("the run did not end");
  return ended;
}

const request = (parent: TaskRun, url: string, max = 3) => ({
  parentRunId: parent.id,
  followUp: context(url),
  reason: "review by alice",
  maxPerPullRequest: max,
});

/** Follow-up runs: linking, finding the pull request's run, the limits, the race, the session id. */
export function followUpTests(open: OpenStore): void {
  describe("follow-ups", () => {
    it("finds the ticket of a pull request a run opened, and creates a linked Queued attempt with its context", async () => {
      const { store } = await open();
      const url = "https://codehost.example/acme/app/pull/7";
      const parent = await openedPullRequest(store, url);
      expect(await store.findPullRequestRun("https://codehost.example/acme/app/pull/8")).toBeUndefined();
      const found = await store.findPullRequestRun(url);
      expect(found).toMatchObject({ opened: { id: parent.id }, latest: { id: parent.id } });
      expect(found?.ticket).toEqual(ticket(parent.ticket.id));
      const child = await store.createFollowUp(request(parent, url));
      expect(child).toMatchObject({
        ticket: parent.ticket,
        attempt: 2,
        state: "Queued",
        engine: parent.engine,
        parentRunId: parent.id,
        followUp: context(url),
        reason: "review by alice",
      });
      expect(await store.getRun(child.id)).toEqual(child);
      expect((await store.findPullRequestRun(url))?.latest.id).toBe(child.id);
      const [claimed] = await store.claimQueued("loop", 1, 60_000);
      expect(claimed?.run).toMatchObject({ id: child.id, followUp: context(url) });
    });

    it("finds a pull request whatever the case, trailing slash or anchor the agent printed its address with", async () => {
      const { store } = await open();
      const parent = await openedPullRequest(store, " https://codehost.example/Acme/App/pull/13/ ");
      const found = await store.findPullRequestRun("https://codehost.example/acme/app/pull/13#discussion_r1");
      expect(found?.opened.id).toBe(parent.id);
      const url = "https://codehost.example/acme/app/pull/13";
      const child = await store.createFollowUp(request(parent, url, 1));
      await store.requestCancel(child.id, "enough");
      await expectCode(store.createFollowUp(request(child, `${url.toUpperCase()}/`, 1)), "ERR_CONFLICT");
    });

    it("refuses while a run of the ticket is active: one active run per pull request", async () => {
      const { store } = await open();
      const url = "https://codehost.example/acme/app/pull/9";
      const parent = await openedPullRequest(store, url);
      const child = await store.createFollowUp(request(parent, url));
      const error = await expectCode(store.createFollowUp(request(child, url)), "ERR_CONFLICT");
      expect(error.message).toContain("a run is already active for this pull request");
      expect(await store.listRuns({ ticket: parent.ticket })).toHaveLength(2);
    });

    it("refuses a parent that is not the newest run of its ticket", async () => {
      const { store } = await open();
      const url = "https://codehost.example/acme/app/pull/10";
      const parent = await openedPullRequest(store, url);
      const child = await store.createFollowUp(request(parent, url));
      await store.requestCancel(child.id, "not now");
      const error = await expectCode(store.createFollowUp(request(parent, url)), "ERR_CONFLICT");
      expect(error.message).toContain(`${child.id} is`);
    });

    it("counts follow-ups per pull request and refuses past the cap", async () => {
      const { store } = await open();
      const url = "https://codehost.example/acme/app/pull/11";
      let latest = await openedPullRequest(store, url);
      for (let i = 0; i < 2; i++) {
        latest = await store.createFollowUp(request(latest, url, 2));
        await store.requestCancel(latest.id, "done with it");
      }
      const error = await expectCode(store.createFollowUp(request(latest, url, 2)), "ERR_CONFLICT");
      expect(error.message).toContain("2 follow-up runs");
      await expectCode(
        store.createFollowUp(request(await openedPullRequest(store, `${url}0`), `${url}0`, 0)),
        "ERR_CONFLICT",
      );
    });

    it("lets one of two racing follow-ups win, on two connections", async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      const url = "https://codehost.example/acme/app/pull/12";
      const parent = await openedPullRequest(store, url);
      const results = await Promise.allSettled([
        store.createFollowUp(request(parent, url)),
        other.createFollowUp(request(parent, url)),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
      const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(rejected.reason).toMatchObject({ code: "ERR_CONFLICT" });
      expect(await store.listRuns({ ticket: parent.ticket })).toHaveLength(2);
    });

    it("keeps a follow-up's review and branch when it is retried, linked to the run it retries", async () => {
      const { store } = await open();
      const url = "https://codehost.example/acme/app/pull/14";
      const parent = await openedPullRequest(store, url);
      const child = await store.createFollowUp(request(parent, url));
      await store.requestCancel(child.id, "not now");
      const again = await store.retry(child.id, "retried by alice");
      expect(again).toMatchObject({ attempt: 3, parentRunId: child.id, followUp: context(url) });
      expect(await store.getRun(again.id)).toEqual(again);
      const plain = await store.retry(parent.id, "a plain retry").catch((e: unknown) => e);
      expect(plain).toMatchObject({ code: "ERR_CONFLICT" });
      await store.requestCancel(again.id, "stop");
      const fresh = await store.retry(parent.id, "a plain retry");
      expect(fresh.parentRunId).toBeUndefined();
      expect(fresh.followUp).toBeUndefined();
    });

    it("refuses an unknown parent with NotFound", async () => {
      const { store } = await open();
      await expectCode(
        store.createFollowUp({ ...request({ id: UNKNOWN } as TaskRun, "https://x.example/p/1") }),
        "ERR_NOT_FOUND",
      );
    });

    it("records the engine's session id in any state, and refuses an unknown run", async () => {
      const { store } = await open();
      const running = await runIn(store, "Running");
      await store.recordSession(running.id, "sess-1");
      expect((await store.getRun(running.id))?.sessionId).toBe("sess-1");
      const done = await store.transition({ runId: running.id, from: ["Running"], to: "Failed", reason: "x" });
      expect(done?.sessionId).toBe("sess-1");
      await store.recordSession(running.id, "sess-2");
      expect((await store.getRun(running.id))?.sessionId).toBe("sess-2");
      await expectCode(store.recordSession(UNKNOWN, "s"), "ERR_NOT_FOUND");
    });
  });
}
