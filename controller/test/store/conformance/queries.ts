import { describe, expect, it } from "vitest";
import { RUN_STATES } from "../../../src/runs/task-run.js";
import { expectCode, type OpenStore, runIn, ticket } from "./support.js";

/** countRuns, listRuns, getRun, getTicket and transitions of what is not there. */
export function queryTests(open: OpenStore): void {
  describe("queries", () => {
    it("counts runs in every state, zeros included", async () => {
      const { store } = await open();
      expect(await store.countRuns()).toEqual(Object.fromEntries(RUN_STATES.map((s) => [s, 0])));
      for (const state of RUN_STATES) await runIn(store, state);
      await runIn(store, "Running");
      expect(await store.countRuns()).toEqual({ ...Object.fromEntries(RUN_STATES.map((s) => [s, 1])), Running: 2 });
    });

    it("lists runs newest first, 100 by default, and as many as asked", async () => {
      const { store } = await open();
      await store.acceptTickets(
        Array.from({ length: 60 }, (_, i) => ticket(`a${i}`)),
        "default",
      );
      await store.acceptTickets(
        Array.from({ length: 45 }, (_, i) => ticket(`b${i}`)),
        "default",
      );
      const all = await store.listRuns();
      expect(all).toHaveLength(100);
      expect(all[0]?.ticket.id).toBe("b44");
      expect(all.at(-1)?.ticket.id).toBe("a5");
      expect((await store.listRuns({ limit: 3 })).map((r) => r.ticket.id)).toEqual(["b44", "b43", "b42"]);
      expect(await store.listRuns({ limit: 0 })).toEqual([]);
    });

    it("filters by states and by ticket (every attempt, newest first)", async () => {
      const { store } = await open();
      const ok = await runIn(store, "Succeeded", "ok");
      const bad = await runIn(store, "Failed", "bad");
      const busy = await runIn(store, "Running", "busy");
      const again = await store.retry(bad.id, "again");
      expect((await store.listRuns({ states: ["Succeeded", "Running"] })).map((r) => r.id)).toEqual([busy.id, ok.id]);
      expect((await store.listRuns({ states: ["Queued"] })).map((r) => r.id)).toEqual([again.id]);
      expect((await store.listRuns({ ticket: { source: "generic", id: "bad" } })).map((r) => r.attempt)).toEqual([
        2, 1,
      ]);
      expect(await store.listRuns({ ticket: { source: "other", id: "bad" } })).toEqual([]);
      expect((await store.listRuns({ states: ["Failed"], ticket: bad.ticket })).map((r) => r.id)).toEqual([bad.id]);
      expect(await store.listRuns({ states: [] })).toHaveLength(4);
      await expectCode(store.listRuns({ states: ["Paused" as never] }), "ERR_STORE");
    });

    it("filters by source and by repository, and pages with a cursor", async () => {
      const { store } = await open();
      const other = "https://codehost.example/acme/other";
      await store.acceptTickets(
        [ticket("s1"), ticket("s2", "tracker"), ticket("s3", "generic", { repoUrl: other }), ticket("s4", "tracker")],
        "default",
      );
      const ids = async (filter: Parameters<typeof store.listRuns>[0]) =>
        (await store.listRuns(filter)).map((r) => r.ticket.id);
      expect(await ids({ source: "tracker" })).toEqual(["s4", "s2"]);
      expect(await ids({ repo: other })).toEqual(["s3"]);
      expect(await ids({ repo: "https://codehost.example/acme/app", source: "generic" })).toEqual(["s1"]);
      expect(await ids({ repo: "https://codehost.example/nowhere" })).toEqual([]);
      // A retry is a run of the same ticket: it is on the same repository.
      const [first] = await store.listRuns({ repo: other });
      if (first === undefined) throw new Error("no run on the other repository");
      await store.requestCancel(first.id, "stop");
      await store.retry(first.id, "again");
      expect((await store.listRuns({ repo: other })).map((r) => r.attempt)).toEqual([2, 1]);

      const all = await store.listRuns();
      const pages: string[][] = [];
      let page = await store.listRuns({ limit: 2 });
      while (page.length > 0) {
        pages.push(page.map((r) => r.id));
        const last = page.at(-1) as (typeof page)[number];
        page = await store.listRuns({ limit: 2, before: { createdAt: last.createdAt, id: last.id } });
      }
      expect(pages.flat()).toEqual(all.map((r) => r.id));
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      await expectCode(store.listRuns({ source: "" }), "ERR_STORE");
      await expectCode(store.listRuns({ before: { createdAt: -1, id: "x" } }), "ERR_STORE");
    });

    it("stores tickets whose text the database's JSON cannot read as text, and still lists them", async () => {
      const { store } = await open();
      const odd = ticket("nul", "generic", { description: "a \u0000 and a lone \ud800 in the body" });
      const [outcome] = await store.acceptTickets([odd], "default");
      expect(outcome?.kind).toBe("queued");
      expect((await store.listRuns({ source: "generic" })).map((r) => r.ticket.id)).toEqual(["nul"]);
      // The body's characters do not hide the run's repository, nor that of a later attempt.
      expect((await store.listRuns({ repo: odd.repoUrl })).map((r) => r.ticket.id)).toEqual(["nul"]);
      await store.requestCancel(outcome?.runId as string, "stop");
      await store.retry(outcome?.runId as string, "again");
      expect((await store.listRuns({ repo: odd.repoUrl })).map((r) => r.attempt)).toEqual([2, 1]);
      expect((await store.getTicket({ source: "generic", id: "nul" }))?.description).toBe(odd.description);
    });

    it("answers undefined or empty for what it does not hold", async () => {
      const { store } = await open();
      expect(await store.getRun("run_00000000000000000000000000")).toBeUndefined();
      expect(await store.getTicket({ source: "generic", id: "nope" })).toBeUndefined();
      expect(await store.transitions("run_00000000000000000000000000")).toEqual([]);
      expect(await store.cancelRequested()).toEqual([]);
    });
  });
}
