import { describe, expect, it } from "vitest";
import type { ApprovalMessageTake } from "../../../src/store/approval-message.js";
import { expectCode, type OpenStore, runIn, sleep, ticket } from "./support.js";

const TAKE: ApprovalMessageTake = { limit: 10, leaseMs: 60_000, maxAttempts: 3 };
const cli = { kind: "cli" as const, name: "alice", from: "host-1" };

/** Chat A's approval messages: recorded once, each update taken by one caller, marked once, retried a bounded number of times. */
export function approvalMessageTests(open: OpenStore): void {
  describe("approval messages", () => {
    it("hands a decided run's recorded message over once, with its run and ticket, and never after it is marked", async () => {
      const { store } = await open();
      const run = await runIn(store, "AwaitingApproval");
      await store.recordApprovalMessage(run.id, "C1", "111.222");
      // Still waiting: nothing to update yet.
      expect(await store.takeApprovalMessageUpdates(TAKE)).toEqual([]);
      await store.transition({ runId: run.id, from: ["AwaitingApproval"], to: "Queued", reason: "ok", actor: cli });
      const stored = await store.getRun(run.id);
      expect(await store.takeApprovalMessageUpdates(TAKE)).toEqual([
        { run: stored, ticket: ticket(run.ticket.id), channel: "C1", ts: "111.222", attempt: 1 },
      ]);
      // Held: no second taker gets it while the first works on it.
      expect(await store.takeApprovalMessageUpdates(TAKE)).toEqual([]);
      await store.finishApprovalMessageUpdate(run.id, true);
      expect(await store.takeApprovalMessageUpdates({ ...TAKE, leaseMs: 1 })).toEqual([]);
      // Taking and marking change nothing a reader of the run sees.
      expect(await store.getRun(run.id)).toEqual(stored);
    });

    it("keeps the first record; refuses an unknown run and blank text", async () => {
      const { store } = await open();
      const run = await runIn(store, "AwaitingApproval");
      await store.recordApprovalMessage(run.id, "C1", "1.1");
      await store.recordApprovalMessage(run.id, "C2", "2.2");
      await store.requestCancel(run.id, "not needed", cli);
      expect(await store.takeApprovalMessageUpdates(TAKE)).toMatchObject([{ channel: "C1", ts: "1.1" }]);
      await expectCode(store.recordApprovalMessage("run_00000000000000000000000000", "C1", "1.1"), "ERR_NOT_FOUND");
      await expectCode(store.recordApprovalMessage(run.id, "", "1.1"), "ERR_STORE");
      await expectCode(store.recordApprovalMessage(run.id, "C1", ""), "ERR_STORE");
    });

    it("takes only decided runs with a message, oldest first, at most `limit`; one run alone when asked", async () => {
      const { store } = await open();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const run = await runIn(store, "AwaitingApproval");
        await store.recordApprovalMessage(run.id, "C1", `${i}.0`);
        await store.transition({ runId: run.id, from: ["AwaitingApproval"], to: "Refused", reason: "timed out" });
        ids.push(run.id);
        await sleep(3);
      }
      const unrecorded = await runIn(store, "AwaitingApproval");
      await store.requestCancel(unrecorded.id, "stop", cli);
      expect(await store.takeApprovalMessageUpdates({ ...TAKE, limit: 0 })).toEqual([]);
      expect((await store.takeApprovalMessageUpdates({ ...TAKE, runId: ids[2] })).map((t) => t.run.id)).toEqual([
        ids[2],
      ]);
      expect((await store.takeApprovalMessageUpdates({ ...TAKE, limit: 1 })).map((t) => t.run.id)).toEqual([ids[0]]);
      expect((await store.takeApprovalMessageUpdates(TAKE)).map((t) => t.run.id)).toEqual([ids[1]]);
    });

    it("retries a failed update after its delay, counting attempts, and stops at maxAttempts", async () => {
      const { store } = await open();
      const run = await runIn(store, "AwaitingApproval");
      await store.recordApprovalMessage(run.id, "C1", "1.1");
      await store.transition({ runId: run.id, from: ["AwaitingApproval"], to: "Queued", reason: "ok", actor: cli });
      expect((await store.takeApprovalMessageUpdates(TAKE))[0]?.attempt).toBe(1);
      await store.finishApprovalMessageUpdate(run.id, false, 60_000);
      expect(await store.takeApprovalMessageUpdates(TAKE)).toEqual([]);
      // A failure released without delay is taken again at once.
      const again = { ...TAKE, leaseMs: 1 };
      await sleep(5);
      expect(await store.takeApprovalMessageUpdates(again)).toEqual([]);
      await store.finishApprovalMessageUpdate(run.id, false);
      expect((await store.takeApprovalMessageUpdates(again))[0]?.attempt).toBe(2);
      // A taker that died: its hold expires and another takes it.
      await sleep(25);
      expect((await store.takeApprovalMessageUpdates(again))[0]?.attempt).toBe(3);
      await store.finishApprovalMessageUpdate(run.id, false);
      expect(await store.takeApprovalMessageUpdates(again)).toEqual([]);
    });

    it("keeps the record and the mark across a reopen, and hands each update to one of two connections", async () => {
      const { store, reopen } = await open();
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        const run = await runIn(store, "AwaitingApproval");
        await store.recordApprovalMessage(run.id, "C1", `${i}.0`);
        await store.requestCancel(run.id, "stop", cli);
        ids.push(run.id);
      }
      await store.finishApprovalMessageUpdate(
        (await store.takeApprovalMessageUpdates({ ...TAKE, limit: 1 }))[0]?.run.id ?? "",
        true,
      );
      await store.close();
      const [a, b] = [await reopen(), await reopen()];
      const taken: string[] = [];
      await Promise.all(
        [a, b].map(async (s) => {
          for (let round = 0; round < 10; round++)
            for (const t of await s.takeApprovalMessageUpdates({ ...TAKE, limit: 3 })) taken.push(t.run.id);
        }),
      );
      expect(taken.sort()).toEqual(ids.slice(1).sort());
      await a.close();
      await b.close();
    });
  });
}
