import { describe, expect, it } from "vitest";
import type { Store } from "../../../src/store/store.js";
import { expectCode, type OpenStore, ticket } from "./support.js";

const RUN = "run_00000000000000000000000000";

/** Every method, called on a closed store. */
const CALLS: Record<string, (s: Store) => Promise<unknown>> = {
  acceptTickets: (s) => s.acceptTickets([ticket("late")], "default"),
  acceptDeliveries: (s) =>
    s.acceptDeliveries([{ tickets: [ticket("late")], delivery: { key: "k", ttlMs: 1000 } }], "default"),
  claimDelivery: (s) => s.claimDelivery("k", 1000),
  commitDelivery: (s) => s.commitDelivery("k", 1000),
  releaseDelivery: (s) => s.releaseDelivery("k"),
  claimQueued: (s) => s.claimQueued("loop", 1, 1000),
  releaseAllClaims: (s) => s.releaseAllClaims(),
  releaseClaim: (s) => s.releaseClaim(RUN, "loop"),
  transition: (s) => s.transition({ runId: RUN, from: ["Queued"], to: "Running", reason: "x" }),
  updateRunning: (s) => s.updateRunning(RUN, { costUsd: 1 }),
  retry: (s) => s.retry(RUN, "x"),
  requestCancel: (s) => s.requestCancel(RUN, "x"),
  takeUnannounced: (s) => s.takeUnannounced(1),
  createFollowUp: (s) =>
    s.createFollowUp({
      parentRunId: RUN,
      followUp: {
        pullRequest: { number: 1, url: "https://x.example/p/1", branch: "b" },
        trigger: "review",
        comments: [],
      },
      reason: "x",
      maxPerPullRequest: 1,
    }),
  findPullRequestRun: (s) => s.findPullRequestRun("https://x.example/p/1"),
  recordSession: (s) => s.recordSession(RUN, "s"),
  getRun: (s) => s.getRun(RUN),
  getTicket: (s) => s.getTicket({ source: "generic", id: "x" }),
  listRuns: (s) => s.listRuns(),
  transitions: (s) => s.transitions(RUN),
  countRuns: (s) => s.countRuns(),
  cancelRequested: (s) => s.cancelRequested(),
};

/** close(): idempotent, and every later call rejects. */
export function lifecycleTests(open: OpenStore): void {
  describe("close", () => {
    it("can be called twice, and every method rejects afterwards with a StoreError", async () => {
      const { store } = await open();
      await store.close();
      await store.close();
      for (const [name, call] of Object.entries(CALLS)) {
        const error = await expectCode(call(store), "ERR_STORE");
        expect(error.message, name).toMatch(/closed/);
      }
    });

    it("leaves other stores on the same database working", async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      await store.acceptTickets([ticket("a")], "default");
      await store.close();
      expect((await other.countRuns()).Queued).toBe(1);
    });
  });
}
