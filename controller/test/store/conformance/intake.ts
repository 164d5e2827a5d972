import { describe, expect, it } from "vitest";
import { rememberJsonText } from "../../../src/json-text.js";
import { isRunId } from "../../../src/store/run-id.js";
import { expectCode, type OpenStore, runIn, ticket } from "./support.js";

/** acceptTickets: identity, dedupe within a batch and across batches, stores and reopens. */
export function intakeTests(open: OpenStore): void {
  describe("acceptTickets", () => {
    it("stores a first-seen ticket and queues its attempt 1, with the transition that created it", async () => {
      const { store } = await open();
      const t = ticket("42", "tracker_a");
      const [outcome] = await store.acceptTickets([t], "claude");
      expect(outcome).toEqual({ kind: "queued", ticket: { source: "tracker_a", id: "42" }, runId: expect.any(String) });
      const runId = outcome?.runId as string;
      expect(isRunId(runId)).toBe(true);
      const run = await store.getRun(runId);
      expect(run).toMatchObject({
        id: runId,
        ticket: { source: "tracker_a", id: "42" },
        attempt: 1,
        state: "Queued",
        engine: "claude",
      });
      expect(run?.reason).toContain("tracker_a");
      expect(run?.updatedAt).toBe(run?.createdAt);
      for (const unset of [
        "backend",
        "startedAt",
        "finishedAt",
        "result",
        "costUsd",
        "logRef",
        "attachment",
        "cancelRequestedAt",
      ] as const) {
        expect(run?.[unset], unset).toBeUndefined();
      }
      expect(await store.getTicket({ source: "tracker_a", id: "42" })).toEqual(t);
      expect(await store.transitions(runId)).toEqual([
        { runId, seq: 1, from: undefined, to: "Queued", at: run?.createdAt, reason: run?.reason },
      ]);
    });

    it("stores a raw event parsed from a webhook body as that body's text, and reads back the same ticket", async () => {
      const { store } = await open();
      // Spacing, escapes, a number beyond 2^53 and a "__proto__" key: what a store must keep as JSON.parse read it.
      const body =
        '{ "action" : "opened",\n "text": "line\\nbreak \\u00fc \\"q\\"", "big": 12345678901234567890, "__proto__": { "x": 1 }, "list": [1, {"a": null}] }';
      const rawEvent = rememberJsonText(JSON.parse(body) as Record<string, unknown>, body);
      const t = ticket("raw", "codehost_a", { rawEvent });
      await store.acceptTickets([t], "default");
      const stored = await store.getTicket({ source: "codehost_a", id: "raw" });
      expect(stored).toEqual(t);
      expect(JSON.stringify(stored?.rawEvent)).toBe(JSON.stringify(JSON.parse(body)));
      expect(Object.hasOwn(stored?.rawEvent as object, "__proto__")).toBe(true);
    });

    it("answers in input order, and a ticket repeated in the batch is existing the second time", async () => {
      const { store } = await open();
      const outcomes = await store.acceptTickets([ticket("a"), ticket("b"), ticket("a"), ticket("c")], "default");
      expect(outcomes.map((o) => [o.kind, o.ticket.id])).toEqual([
        ["queued", "a"],
        ["queued", "b"],
        ["existing", "a"],
        ["queued", "c"],
      ]);
      expect(outcomes[2]).toEqual({
        kind: "existing",
        ticket: { source: "generic", id: "a" },
        runId: outcomes[0]?.runId,
        state: "Queued",
      });
      expect(new Set(outcomes.map((o) => o.runId)).size).toBe(3);
      expect((await store.countRuns()).Queued).toBe(3);
    });

    it("identifies a ticket by source and id together", async () => {
      const { store } = await open();
      const outcomes = await store.acceptTickets([ticket("7", "codehost_a"), ticket("7", "tracker_b")], "default");
      expect(outcomes.map((o) => o.kind)).toEqual(["queued", "queued"]);
      expect(outcomes[0]?.runId).not.toBe(outcomes[1]?.runId);
      expect((await store.getTicket({ source: "tracker_b", id: "7" }))?.source).toBe("tracker_b");
    });

    it("never starts a ticket again that has a run, active or finished", async () => {
      const { store } = await open();
      const finished = await runIn(store, "Succeeded", "done");
      const running = await runIn(store, "Running", "busy");
      const outcomes = await store.acceptTickets([ticket("done"), ticket("busy")], "default");
      expect(outcomes).toEqual([
        { kind: "existing", ticket: { source: "generic", id: "done" }, runId: finished.id, state: "Succeeded" },
        { kind: "existing", ticket: { source: "generic", id: "busy" }, runId: running.id, state: "Running" },
      ]);
      expect(await store.listRuns({ ticket: { source: "generic", id: "done" } })).toHaveLength(1);
    });

    it("names the latest attempt of a ticket that was retried", async () => {
      const { store } = await open();
      const first = await runIn(store, "Failed", "flaky");
      const second = await store.retry(first.id, "try again");
      const [outcome] = await store.acceptTickets([ticket("flaky")], "default");
      expect(outcome).toMatchObject({ kind: "existing", runId: second.id, state: "Queued" });
    });

    it("keeps tickets, runs and transitions across close and reopen, and knows them as existing", async () => {
      const { store, reopen } = await open();
      const [outcome] = await store.acceptTickets([ticket("durable")], "default");
      const run = await store.getRun(outcome?.runId as string);
      const history = await store.transitions(outcome?.runId as string);
      await store.close();
      const again = await reopen();
      expect(await again.getRun(outcome?.runId as string)).toEqual(run);
      expect(await again.transitions(outcome?.runId as string)).toEqual(history);
      expect(await again.getTicket({ source: "generic", id: "durable" })).toEqual(ticket("durable"));
      expect(await again.acceptTickets([ticket("durable")], "default")).toEqual([
        { kind: "existing", ticket: { source: "generic", id: "durable" }, runId: outcome?.runId, state: "Queued" },
      ]);
    });

    it("creates one first run per ticket when two stores accept overlapping batches at once", async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ticket(`r${from + i}`));
      const [a, b] = await Promise.all([
        store.acceptTickets(ids(0, 20), "default"),
        other.acceptTickets(ids(10, 30), "default"),
      ]);
      const queued = [...a, ...b].filter((o) => o.kind === "queued").map((o) => o.ticket.id);
      expect(queued.sort()).toEqual(
        ids(0, 30)
          .map((t) => t.id)
          .sort(),
      );
      expect((await store.countRuns()).Queued).toBe(30);
    });

    it("stores nothing for an empty batch", async () => {
      const { store } = await open();
      expect(await store.acceptTickets([], "default")).toEqual([]);
      expect((await store.listRuns()).length).toBe(0);
    });

    it("refuses a whole batch holding a ticket without an id, storing none of it", async () => {
      const { store } = await open();
      const error = await expectCode(store.acceptTickets([ticket("fine"), ticket("")], "default"), "ERR_STORE");
      expect(error.message).toContain("ticket 1");
      expect(await store.getTicket({ source: "generic", id: "fine" })).toBeUndefined();
      expect(await store.listRuns()).toEqual([]);
    });

    it("says what it is and where it lives", async () => {
      const { store } = await open();
      expect(store.kind).toMatch(/^[a-z]+$/);
      expect(store.location).toEqual(expect.any(String));
    });
  });
}
