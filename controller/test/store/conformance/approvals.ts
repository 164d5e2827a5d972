import { describe, expect, it } from "vitest";
import { createApprovalSweeper } from "../../../src/approvals/approval-sweeper.js";
import { createApprovals } from "../../../src/approvals/approvals.js";
import type { Actor } from "../../../src/runs/task-run.js";
import type { Store } from "../../../src/store/store.js";
import { expectCode, type OpenStore, runIn, sleep, ticket } from "./support.js";

const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
const alice: Actor = { kind: "chat_a", name: "U0ALICE", from: "chat A" };
const bob: Actor = { kind: "console", name: "bob", from: "10.0.0.7" };
const approvals = (store: Store) => createApprovals({ store, approvers: ["U0ALICE", "bob"], logger: silent });

/** Runs held for approval: created in AwaitingApproval, decided once, whatever races or repeats. */
export function approvalTests(open: OpenStore): void {
  describe("runs awaiting approval", () => {
    it("creates a held ticket's run in AwaitingApproval, which no loop claims, and counts it", async () => {
      const { store } = await open();
      const held = (t: { id: string }) => t.id === "held";
      const outcomes = await store.acceptTickets([ticket("held"), ticket("free")], "default", { needsApproval: held });
      expect(outcomes[0]).toMatchObject({ kind: "queued", awaitingApproval: true });
      expect(outcomes[1]).toEqual({
        kind: "queued",
        ticket: { source: "generic", id: "free" },
        runId: expect.any(String),
      });
      const runId = outcomes[0]?.runId as string;
      expect(await store.getRun(runId)).toMatchObject({ state: "AwaitingApproval", attempt: 1 });
      expect(await store.transitions(runId)).toEqual([
        expect.objectContaining({ seq: 1, from: undefined, to: "AwaitingApproval", actor: undefined }),
      ]);
      expect((await store.claimQueued("loop", 5, 60_000)).map((c) => c.ticket.id)).toEqual(["free"]);
      expect((await store.countRuns()).AwaitingApproval).toBe(1);
      expect((await store.listRuns({ states: ["AwaitingApproval"] })).map((r) => r.id)).toEqual([runId]);
      // The ticket seen again is the same active attempt: nothing new starts, nothing is released.
      const [again] = await store.acceptTickets([ticket("held")], "default", { needsApproval: () => true });
      expect(again).toMatchObject({ kind: "existing", runId, state: "AwaitingApproval" });
    });

    it("holds a delivery's tickets as acceptDeliveries stores them", async () => {
      const { store } = await open();
      const [result] = await store.acceptDeliveries([{ tickets: [ticket("d1")] }], "default", {
        needsApproval: () => true,
      });
      expect(result).toMatchObject({ delivery: "new", outcomes: [{ kind: "queued", awaitingApproval: true }] });
    });

    it("approves: the run is Queued, claimable, and its timeline says who approved it", async () => {
      const { store } = await open();
      const run = await runIn(store, "AwaitingApproval");
      const outcome = await approvals(store).decide(run.id, "approve", alice, "looks fine");
      expect(outcome).toMatchObject({ kind: "decided", run: { id: run.id, state: "Queued" } });
      expect((await store.transitions(run.id)).at(-1)).toMatchObject({
        from: "AwaitingApproval",
        to: "Queued",
        reason: "approved by chat_a U0ALICE from chat A: looks fine",
        actor: alice,
      });
      expect((await store.claimQueued("loop", 5, 60_000)).map((c) => c.run.id)).toEqual([run.id]);
      expect(await store.takeUnannounced(5)).toEqual([]);
    });

    it("rejects: the run is Refused with the reason as its result, and its end is announced once", async () => {
      const { store } = await open();
      const run = await runIn(store, "AwaitingApproval");
      const outcome = await approvals(store).decide(run.id, "reject", bob, "not this week");
      expect(outcome).toMatchObject({ kind: "decided", run: { state: "Refused" } });
      const refused = await store.getRun(run.id);
      expect(refused?.result).toMatchObject({
        success: false,
        failureReason: "rejected by console bob from 10.0.0.7: not this week",
      });
      expect(refused?.finishedAt).toEqual(expect.any(Number));
      expect((await store.takeUnannounced(5)).map((t) => t.run.id)).toEqual([run.id]);
      expect(await store.takeUnannounced(5)).toEqual([]);
    });

    it("two approvals racing on two connections: exactly one is decided, the other not_awaiting", async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      const run = await runIn(store, "AwaitingApproval");
      const results = await Promise.all([
        approvals(store).decide(run.id, "approve", alice),
        approvals(other).decide(run.id, "approve", bob),
        approvals(other).decide(run.id, "reject", bob),
      ]);
      expect(results.filter((r) => r.kind === "decided")).toHaveLength(1);
      expect(results.filter((r) => r.kind === "refused").map((r) => r.kind === "refused" && r.code)).toEqual([
        "not_awaiting",
        "not_awaiting",
      ]);
      expect(await store.transitions(run.id)).toHaveLength(2);
    });

    it("an approval after a reject is not_awaiting and changes nothing", async () => {
      const { store } = await open();
      const run = await runIn(store, "AwaitingApproval");
      await approvals(store).decide(run.id, "reject", alice);
      const late = await approvals(store).decide(run.id, "approve", bob);
      expect(late).toMatchObject({ kind: "refused", code: "not_awaiting", run: { state: "Refused" } });
      expect(late.kind === "refused" && late.message).toContain("is Refused, not AwaitingApproval");
      expect((await store.getRun(run.id))?.state).toBe("Refused");
    });

    it("a redelivered approval is not_awaiting: one transition, one claimable run", async () => {
      const { store } = await open();
      const run = await runIn(store, "AwaitingApproval");
      await approvals(store).decide(run.id, "approve", alice);
      expect(await approvals(store).decide(run.id, "approve", alice)).toMatchObject({ code: "not_awaiting" });
      expect(await store.transitions(run.id)).toHaveLength(2);
    });

    it("cancels a run awaiting approval at once; an approval after it is not_awaiting", async () => {
      const { store } = await open();
      const run = await runIn(store, "AwaitingApproval");
      const cancelled = await store.requestCancel(run.id, "not needed", { kind: "cli", name: "carol", from: "host-1" });
      expect(cancelled).toMatchObject({ state: "Cancelled", result: { failureReason: "not needed" } });
      expect((await store.transitions(run.id)).at(-1)).toMatchObject({
        from: "AwaitingApproval",
        to: "Cancelled",
        actor: { kind: "cli", name: "carol", from: "host-1" },
      });
      expect(await approvals(store).decide(run.id, "approve", alice)).toMatchObject({ code: "not_awaiting" });
      expect((await store.takeUnannounced(5)).map((t) => t.run.id)).toEqual([run.id]);
    });

    it("refuses a person not in approvers and an unknown run, moving nothing", async () => {
      const { store } = await open();
      const run = await runIn(store, "AwaitingApproval");
      const mallory: Actor = { kind: "chat_a", name: "U0MALLORY" };
      expect(await approvals(store).decide(run.id, "approve", mallory)).toMatchObject({ code: "not_approver" });
      expect(await approvals(store).decide("run_00000000000000000000000000", "approve", alice)).toMatchObject({
        code: "not_found",
      });
      // The operator's shell needs no entry in approvers.
      const cli: Actor = { kind: "cli", name: "root" };
      expect(await approvals(store).decide(run.id, "approve", cli)).toMatchObject({ kind: "decided" });
    });

    it("keeps the run awaiting approval across a reopen, and an active attempt blocks a retry", async () => {
      const { store, reopen } = await open();
      const run = await runIn(store, "AwaitingApproval");
      await store.close();
      const again = await reopen();
      expect((await again.getRun(run.id))?.state).toBe("AwaitingApproval");
      await expectCode(again.retry(run.id, "again"), "ERR_CONFLICT");
      expect(await approvals(again).decide(run.id, "approve", alice)).toMatchObject({ kind: "decided" });
    });

    it("times a run out once when two controllers sweep at once; one still waiting is announced, not refused", async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      const run = await runIn(store, "AwaitingApproval");
      await sleep(5);
      const announced: string[] = [];
      const sweeper = (s: Store, timeoutMs: number) =>
        createApprovalSweeper({
          store: s,
          timeoutMs,
          logger: silent,
          announce: async (r) => void announced.push(r.id),
        });
      await Promise.all([sweeper(store, 1).sweep(), sweeper(other, 1).sweep()]);
      expect(await store.getRun(run.id)).toMatchObject({ state: "Refused", reason: "approval timed out after 0s" });
      expect((await store.transitions(run.id)).map((t) => t.to)).toEqual(["AwaitingApproval", "Refused"]);
      expect((await store.takeUnannounced(5)).map((t) => t.run.id)).toEqual([run.id]);
      const waiting = await runIn(store, "AwaitingApproval");
      const patient = sweeper(store, 3_600_000);
      await patient.sweep();
      await patient.sweep();
      expect(announced).toEqual([waiting.id]);
      expect((await store.getRun(waiting.id))?.state).toBe("AwaitingApproval");
    });

    it("stores the actor of a retry", async () => {
      const { store } = await open();
      const run = await runIn(store, "Failed");
      const second = await store.retry(run.id, "again", { kind: "cli", name: "dave" });
      expect(await store.transitions(second.id)).toEqual([
        expect.objectContaining({ to: "Queued", actor: { kind: "cli", name: "dave" } }),
      ]);
    });
  });
}
