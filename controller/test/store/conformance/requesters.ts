import { describe, expect, it } from "vitest";
import { createApprovalSweeper } from "../../../src/approvals/approval-sweeper.js";
import type { Actor } from "../../../src/runs/task-run.js";
import { type OpenStore, runIn, sleep } from "./support.js";

const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
const carol: Actor = { kind: "console", name: "carol", from: "10.0.0.9" };
const dave: Actor = { kind: "cli", name: "dave", from: "host-2" };

/** Who asked to cancel a Running run (named later in the loop's transition), and the one announcement of a wait. */
export function requesterTests(open: OpenStore): void {
  describe("who asked to cancel a Running run", () => {
    it("keeps the first request's actor and names it in the Cancelled transition the loop makes later", async () => {
      const { store, reopen } = await open();
      const run = await runIn(store, "Running");
      const marked = await store.requestCancel(run.id, "cancelled from the console by carol", carol);
      expect(marked.cancelRequestedBy).toEqual(carol);
      await sleep(2);
      // A second request (another process) changes neither the reason nor who asked.
      const again = await (await reopen()).requestCancel(run.id, "cancelled with errand runs cancel", dave);
      expect(again).toMatchObject({ reason: "cancelled from the console by carol", cancelRequestedBy: carol });
      // The loop's transition names no actor of its own: the store names the requester.
      await store.transition({ runId: run.id, from: ["Running"], to: "Cancelled", reason: again.reason });
      expect((await store.transitions(run.id)).at(-1)).toMatchObject({ to: "Cancelled", actor: carol });
      expect((await store.getRun(run.id))?.cancelRequestedBy).toEqual(carol);
    });

    it("names nobody when the cancel came without an actor, or when the run ended otherwise", async () => {
      const { store } = await open();
      const anonymous = await runIn(store, "Running");
      await store.requestCancel(anonymous.id, "stop");
      await store.transition({ runId: anonymous.id, from: ["Running"], to: "Cancelled", reason: "stop" });
      expect((await store.transitions(anonymous.id)).at(-1)?.actor).toBeUndefined();
      const finished = await runIn(store, "Running");
      await store.requestCancel(finished.id, "stop", dave);
      // The engine finished first: a Succeeded transition is not the requester's doing.
      await store.transition({ runId: finished.id, from: ["Running"], to: "Succeeded", reason: "done" });
      expect((await store.transitions(finished.id)).at(-1)?.actor).toBeUndefined();
    });

    it("stores a Queued run's canceller on its Cancelled transition and as cancelRequestedBy", async () => {
      const { store } = await open();
      const run = await runIn(store, "Queued");
      const cancelled = await store.requestCancel(run.id, "cancelled from the console by carol", carol);
      expect(cancelled).toMatchObject({ state: "Cancelled", cancelRequestedBy: carol });
      expect((await store.transitions(run.id)).at(-1)).toMatchObject({ to: "Cancelled", actor: carol });
    });
  });

  describe("claimApprovalAnnouncement", () => {
    it("is true once per waiting run, across connections, and never for a run in another state", async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      const waiting = await runIn(store, "AwaitingApproval");
      const first = await Promise.all([
        store.claimApprovalAnnouncement(waiting.id),
        other.claimApprovalAnnouncement(waiting.id),
      ]);
      expect(first.filter(Boolean)).toHaveLength(1);
      // A restarted controller opens the store again and finds the mark.
      expect(await (await reopen()).claimApprovalAnnouncement(waiting.id)).toBe(false);
      const queued = await runIn(store, "Queued");
      expect(await store.claimApprovalAnnouncement(queued.id)).toBe(false);
      expect(await store.claimApprovalAnnouncement("run_00000000000000000000000000")).toBe(false);
      // The mark changes nothing a reader sees.
      expect(await store.getRun(waiting.id)).toMatchObject({ state: "AwaitingApproval" });
    });

    it("lets the sweep announce a run whose mark could not be written on a later pass, once", async () => {
      const { store, failWrites } = await open();
      const waiting = await runIn(store, "AwaitingApproval");
      const announced: string[] = [];
      const sweeper = createApprovalSweeper({
        store,
        timeoutMs: 3_600_000,
        logger: silent,
        announce: async (r) => void announced.push(r.id),
      });
      const restore = await failWrites("task_runs");
      await sweeper.sweep();
      expect(announced).toEqual([]);
      await restore();
      await sweeper.sweep();
      await sweeper.sweep();
      expect(announced).toEqual([waiting.id]);
    });
  });
}
