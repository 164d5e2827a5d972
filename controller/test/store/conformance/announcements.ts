import { describe, expect, it } from "vitest";
import { TERMINAL_STATES } from "../../../src/runs/task-run.js";
import { type OpenStore, runIn, sleep, ticket } from "./support.js";

/** takeUnannounced: the ends no loop announced (a Queued run cancelled), each handed out once. */
export function announcementTests(open: OpenStore): void {
  describe("takeUnannounced", () => {
    it("hands a cancelled Queued run over once, as stored, with its ticket", async () => {
      const { store } = await open();
      const run = await runIn(store, "Queued");
      await store.requestCancel(run.id, "cancelled by alice");
      const stored = await store.getRun(run.id);
      expect(await store.takeUnannounced(10)).toEqual([{ run: stored, ticket: ticket(run.ticket.id) }]);
      expect(stored).toMatchObject({
        state: "Cancelled",
        result: { success: false, failureReason: "cancelled by alice" },
      });
      expect(await store.takeUnannounced(10)).toEqual([]);
      // Taking changes nothing a reader sees.
      expect(await store.getRun(run.id)).toEqual(stored);
    });

    it("marks no end the loop stores itself: a Running run cancelled, every other final state", async () => {
      const { store } = await open();
      const running = await runIn(store, "Running");
      await store.requestCancel(running.id, "stop it");
      await store.transition({ runId: running.id, from: ["Running"], to: "Cancelled", reason: "stopped" });
      for (const state of TERMINAL_STATES) await runIn(store, state);
      await runIn(store, "Queued");
      expect(await store.takeUnannounced(100)).toEqual([]);
    });

    it("takes the oldest ends first, at most `limit`; a limit of 0 takes nothing", async () => {
      const { store } = await open();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const run = await runIn(store, "Queued");
        await store.requestCancel(run.id, `cancel ${i}`);
        ids.push(run.id);
        await sleep(3);
      }
      expect(await store.takeUnannounced(0)).toEqual([]);
      expect((await store.takeUnannounced(2)).map((t) => t.run.id)).toEqual(ids.slice(0, 2));
      expect((await store.takeUnannounced(2)).map((t) => t.run.id)).toEqual(ids.slice(2));
    });

    it("keeps the mark across a reopen, and hands each end to one of two connections taking at once", async () => {
      const { store, reopen } = await open();
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        const run = await runIn(store, "Queued");
        await store.requestCancel(run.id, "stop");
        ids.push(run.id);
      }
      await store.close();
      const [a, b] = [await reopen(), await reopen()];
      const taken: string[] = [];
      await Promise.all(
        [a, b].map(async (s) => {
          for (let round = 0; round < 10; round++) for (const t of await s.takeUnannounced(3)) taken.push(t.run.id);
        }),
      );
      expect(taken.sort()).toEqual([...ids].sort());
    });
  });
}
