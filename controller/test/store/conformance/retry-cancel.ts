import { describe, expect, it } from "vitest";
import { TERMINAL_STATES } from "../../../src/runs/task-run.js";
import { expectCode, type OpenStore, runIn, sleep, ticket } from "./support.js";

const FINISHED = [...TERMINAL_STATES];
const UNKNOWN = "run_00000000000000000000000000";

/** retry and requestCancel: what each state allows, and what the store records. */
export function retryCancelTests(open: OpenStore): void {
  describe("retry", () => {
    it.each(FINISHED)("queues attempt 2 of a %s run, leaving the first as it was", async (state) => {
      const { store } = await open();
      const first = await runIn(store, state);
      const second = await store.retry(first.id, "retried by alice");
      expect(second).toMatchObject({
        ticket: first.ticket,
        attempt: 2,
        state: "Queued",
        engine: first.engine,
        reason: "retried by alice",
      });
      expect(second.id).not.toBe(first.id);
      expect(await store.getRun(first.id)).toEqual(first);
      expect(await store.transitions(second.id)).toEqual([
        { runId: second.id, seq: 1, from: undefined, to: "Queued", at: second.createdAt, reason: "retried by alice" },
      ]);
      const [claimed] = await store.claimQueued("loop", 1, 60_000);
      expect(claimed?.run.id).toBe(second.id);
      expect(claimed?.ticket).toEqual(ticket(first.ticket.id));
    });

    it.each(["Queued", "Running"] as const)("refuses a %s run with a Conflict", async (state) => {
      const { store } = await open();
      const run = await runIn(store, state);
      await expectCode(store.retry(run.id, "again"), "ERR_CONFLICT");
      expect(await store.listRuns({ ticket: run.ticket })).toHaveLength(1);
    });

    it("refuses while another attempt of the ticket is active, and numbers attempts after the highest", async () => {
      const { store } = await open();
      const first = await runIn(store, "Failed");
      const second = await store.retry(first.id, "again");
      await expectCode(store.retry(first.id, "once more"), "ERR_CONFLICT");
      await store.transition({ runId: second.id, from: ["Queued"], to: "Refused", reason: "repo not allowed" });
      expect((await store.retry(first.id, "third time")).attempt).toBe(3);
    });

    it("refuses an unknown run with NotFound", async () => {
      const { store } = await open();
      await expectCode(store.retry(UNKNOWN, "again"), "ERR_NOT_FOUND");
    });
  });

  describe("requestCancel", () => {
    it("cancels a Queued run at once, with a failed result naming the reason", async () => {
      const { store } = await open();
      const run = await runIn(store, "Queued");
      const cancelled = await store.requestCancel(run.id, "cancelled by alice");
      expect(cancelled).toMatchObject({
        state: "Cancelled",
        reason: "cancelled by alice",
        result: { success: false, failureReason: "cancelled by alice" },
      });
      expect(cancelled.finishedAt).toBe(cancelled.updatedAt);
      expect(cancelled.cancelRequestedAt).toEqual(expect.any(Number));
      expect((await store.transitions(run.id)).at(-1)).toMatchObject({
        from: "Queued",
        to: "Cancelled",
        reason: "cancelled by alice",
      });
      expect(await store.claimQueued("loop", 5, 60_000)).toEqual([]);
    });

    it("beats a loop that claimed the Queued run: its move to Running then fails", async () => {
      const { store } = await open();
      const run = await runIn(store, "Queued");
      await store.claimQueued("loop", 1, 60_000);
      await store.requestCancel(run.id, "stop");
      expect(
        await store.transition({ runId: run.id, from: ["Queued"], to: "Running", reason: "slot" }),
      ).toBeUndefined();
    });

    it("marks a Running run once, keeps it Running with the request's reason, and lists it until it ends", async () => {
      const { store } = await open();
      const run = await runIn(store, "Running");
      const marked = await store.requestCancel(run.id, "stop it");
      expect(marked).toMatchObject({ state: "Running", cancelRequestedAt: expect.any(Number), reason: "stop it" });
      await sleep(5);
      const again = await store.requestCancel(run.id, "stop it now");
      expect(again.cancelRequestedAt).toBe(marked.cancelRequestedAt);
      expect(again.reason).toBe("stop it");
      expect(await store.transitions(run.id)).toHaveLength(2);
      expect((await store.cancelRequested()).map((r) => r.id)).toEqual([run.id]);
      await store.transition({ runId: run.id, from: ["Running"], to: "Cancelled", reason: "stopped" });
      expect(await store.cancelRequested()).toEqual([]);
    });

    it.each(FINISHED)("refuses a %s run with a Conflict and a hint", async (state) => {
      const { store } = await open();
      const run = await runIn(store, state);
      const error = await expectCode(store.requestCancel(run.id, "stop"), "ERR_CONFLICT");
      expect(error.message).toContain(state);
      expect(await store.getRun(run.id)).toEqual(run);
    });

    it("refuses an unknown run with NotFound", async () => {
      const { store } = await open();
      await expectCode(store.requestCancel(UNKNOWN, "stop"), "ERR_NOT_FOUND");
    });
  });
}
