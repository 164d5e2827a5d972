import { describe, expect, it } from "vitest";
import { ALLOWED_TRANSITIONS, isTerminal, RUN_STATES } from "../../../src/runs/task-run.js";
import { expectCode, type OpenStore, runIn } from "./support.js";

const SUCCESS = { success: true, summary: "Fixed it", pullRequestUrl: "", failureReason: "", durationMs: 5 };

const ALLOWED = RUN_STATES.flatMap((from) => ALLOWED_TRANSITIONS[from].map((to) => [from, to] as const));

/** transition and updateRunning: the allowed graph, conditions, races, history, patches. */
export function transitionTests(open: OpenStore): void {
  describe("transitions", () => {
    it.each(ALLOWED)("applies %s → %s with its time and reason", async (from, to) => {
      const { store } = await open();
      const before = await runIn(store, from);
      const moved = await store.transition({ runId: before.id, from: [from], to, reason: `because ${to}` });
      expect(moved).toMatchObject({ id: before.id, state: to, reason: `because ${to}` });
      expect(await store.getRun(before.id)).toEqual(moved);
      expect(moved?.updatedAt).toBeGreaterThanOrEqual(before.updatedAt);
      if (to === "Running") expect(moved?.startedAt).toBe(moved?.updatedAt);
      else expect(moved?.startedAt).toBe(before.startedAt);
      expect(moved?.finishedAt).toBe(isTerminal(to) ? moved?.updatedAt : undefined);
      const history = await store.transitions(before.id);
      expect(history.at(-1)).toEqual({
        runId: before.id,
        seq: history.length,
        from,
        to,
        at: moved?.updatedAt,
        reason: `because ${to}`,
      });
    });

    it.each(RUN_STATES)("refuses every transition out of %s that ALLOWED_TRANSITIONS does not list", async (from) => {
      const { store } = await open();
      const run = await runIn(store, from);
      const history = await store.transitions(run.id);
      const refused = RUN_STATES.filter((to) => !ALLOWED_TRANSITIONS[from].includes(to));
      for (const to of refused) {
        const error = await expectCode(
          store.transition({ runId: run.id, from: [from], to, reason: "bug" }),
          "ERR_STORE",
        );
        expect(error.message).toContain(`${from} → ${to}`);
      }
      expect(await store.getRun(run.id)).toEqual(run);
      expect(await store.transitions(run.id)).toEqual(history);
    });

    it("changes nothing and answers undefined when the run is not in a `from` state", async () => {
      const { store } = await open();
      const run = await runIn(store, "Running");
      const count = (await store.transitions(run.id)).length;
      expect(
        await store.transition({ runId: run.id, from: ["Queued"], to: "Cancelled", reason: "late" }),
      ).toBeUndefined();
      expect(await store.getRun(run.id)).toEqual(run);
      expect(await store.transitions(run.id)).toHaveLength(count);
    });

    it("accepts several `from` states and records the one the run was in", async () => {
      const { store } = await open();
      const run = await runIn(store, "Running");
      const moved = await store.transition({
        runId: run.id,
        from: ["Queued", "Running"],
        to: "Cancelled",
        reason: "stop",
      });
      expect(moved?.state).toBe("Cancelled");
      expect((await store.transitions(run.id)).at(-1)).toMatchObject({ from: "Running", to: "Cancelled" });
    });

    it("refuses an unknown run with NotFound and a request that names no state", async () => {
      const { store } = await open();
      await expectCode(
        store.transition({ runId: "run_00000000000000000000000000", from: ["Queued"], to: "Running", reason: "x" }),
        "ERR_NOT_FOUND",
      );
      const run = await runIn(store, "Queued");
      await expectCode(store.transition({ runId: run.id, from: [], to: "Running", reason: "x" }), "ERR_STORE");
    });

    it("lets exactly one of two stores win a race out of Running", async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      for (let i = 0; i < 10; i++) {
        const run = await runIn(store, "Running");
        const [a, b] = await Promise.all([
          store.transition({ runId: run.id, from: ["Running"], to: "Succeeded", reason: "engine finished" }),
          other.transition({ runId: run.id, from: ["Running"], to: "Cancelled", reason: "cancel" }),
        ]);
        const winners = [a, b].filter((r) => r !== undefined);
        expect(winners).toHaveLength(1);
        expect((await store.getRun(run.id))?.state).toBe(winners[0]?.state);
        expect((await store.transitions(run.id)).filter((t) => t.from === "Running")).toHaveLength(1);
      }
    });

    it("numbers the history without gaps when two stores move one run one after the other", async () => {
      const { store, reopen } = await open();
      const other = await reopen();
      for (let i = 0; i < 10; i++) {
        const run = await runIn(store, "Queued");
        // Whichever goes second may still move it (Running → Cancelled), or find it Cancelled already.
        const results = await Promise.all([
          store.transition({ runId: run.id, from: ["Queued"], to: "Running", reason: "slot" }),
          other.transition({ runId: run.id, from: ["Queued", "Running"], to: "Cancelled", reason: "cancel" }),
        ]);
        const history = await store.transitions(run.id);
        expect(history.map((t) => t.seq)).toEqual(history.map((_, n) => n + 1));
        expect(history).toHaveLength(1 + results.filter((r) => r !== undefined).length);
        // Each row starts where the one before it ended.
        for (let n = 1; n < history.length; n++) expect(history[n]?.from).toBe(history[n - 1]?.to);
        expect((await store.getRun(run.id))?.state).toBe("Cancelled");
      }
    });

    it("gives each of many moves made at once the outcome it would have alone", async () => {
      const { store } = await open();
      const queued = await Promise.all(Array.from({ length: 24 }, () => runIn(store, "Queued")));
      const ended = await runIn(store, "Succeeded");
      const running = await runIn(store, "Running");
      const stopping = await runIn(store, "Running");
      const actor = { kind: "console", name: "operator", from: "127.0.0.1" } as const;
      await store.requestCancel(stopping.id, "stop it", actor);
      const at = Date.now();
      const [moves, stale, unknown, result, cancelled] = await Promise.all([
        Promise.all(
          queued.map((run, n) =>
            store.transition({
              runId: run.id,
              from: ["Queued"],
              to: n % 3 === 0 ? "Cancelled" : "Running",
              reason: `move ${n}`,
              at: at + n,
              patch: { backend: `backend-${n}`, logRef: `/logs/${n}`, attachment: { n } },
            }),
          ),
        ),
        store.transition({ runId: ended.id, from: ["Running"], to: "Failed", reason: "too late" }),
        store
          .transition({ runId: "run_00000000000000000000000000", from: ["Queued"], to: "Running", reason: "x" })
          .then(
            () => "moved",
            (error: { code?: string }) => error.code,
          ),
        store.transition({
          runId: running.id,
          from: ["Running"],
          to: "Succeeded",
          reason: "done",
          patch: { costUsd: 0.5, result: { ...SUCCESS, pullRequestUrl: "https://codehost.example/acme/web/pull/9" } },
        }),
        store.transition({ runId: stopping.id, from: ["Running"], to: "Cancelled", reason: "stopped" }),
      ]);
      expect(stale).toBeUndefined();
      expect(unknown).toBe("ERR_NOT_FOUND");
      for (const [n, moved] of moves.entries()) {
        const to = n % 3 === 0 ? "Cancelled" : "Running";
        expect(moved).toMatchObject({ id: queued[n]!.id, state: to, reason: `move ${n}`, updatedAt: at + n });
        expect(moved).toMatchObject({ backend: `backend-${n}`, logRef: `/logs/${n}`, attachment: { n } });
        expect(moved?.startedAt).toBe(to === "Running" ? at + n : undefined);
        expect(moved?.finishedAt).toBe(to === "Cancelled" ? at + n : undefined);
        expect(await store.getRun(queued[n]!.id)).toEqual(moved);
        expect(await store.transitions(queued[n]!.id)).toMatchObject([
          { seq: 1, to: "Queued" },
          { seq: 2, from: "Queued", to, at: at + n, reason: `move ${n}`, actor: undefined },
        ]);
      }
      expect(result).toMatchObject({ state: "Succeeded", costUsd: 0.5, result: { summary: SUCCESS.summary } });
      expect((await store.findPullRequestRun("https://codehost.example/acme/web/pull/9"))?.opened.id).toBe(running.id);
      expect(cancelled?.state).toBe("Cancelled");
      // A cancel the loop carries out is by whoever asked for it.
      expect((await store.transitions(stopping.id)).at(-1)).toMatchObject({ from: "Running", to: "Cancelled", actor });
    });

    it("moves a run twice when two moves of it come at once, numbering both, in either order", async () => {
      const { store } = await open();
      for (let i = 0; i < 5; i++) {
        const run = await runIn(store, "Queued");
        const [start, cancel] = await Promise.all([
          store.transition({ runId: run.id, from: ["Queued"], to: "Running", reason: "slot" }),
          store.transition({ runId: run.id, from: ["Queued", "Running"], to: "Cancelled", reason: "cancel" }),
        ]);
        expect(cancel?.state).toBe("Cancelled");
        const history = await store.transitions(run.id);
        expect(history.map((t) => t.seq)).toEqual(history.map((_, n) => n + 1));
        expect(history).toHaveLength(start === undefined ? 2 : 3);
        for (let n = 1; n < history.length; n++) expect(history[n]?.from).toBe(history[n - 1]?.to);
      }
    });

    it("records every transition in order, numbered from 1", async () => {
      const { store } = await open();
      const run = await runIn(store, "Queued");
      await store.transition({
        runId: run.id,
        from: ["Queued"],
        to: "Running",
        reason: "slot",
        at: run.createdAt + 10,
      });
      await store.transition({
        runId: run.id,
        from: ["Running"],
        to: "TimedOut",
        reason: "too long",
        at: run.createdAt + 20,
      });
      const history = await store.transitions(run.id);
      expect(history.map((t) => [t.seq, t.from, t.to, t.at - run.createdAt])).toEqual([
        [1, undefined, "Queued", 0],
        [2, "Queued", "Running", 10],
        [3, "Running", "TimedOut", 20],
      ]);
    });

    it("writes the patch with the transition, keeps unpatched fields, and keeps both across reopen", async () => {
      const { store, reopen } = await open();
      const run = await runIn(store, "Queued");
      const attachment = { pid: 4242, startedAt: "2026-01-01T00:00:00Z", nested: { ok: true } };
      await store.transition({
        runId: run.id,
        from: ["Queued"],
        to: "Running",
        reason: "go",
        patch: { backend: "local", logRef: "/logs/a.log", attachment },
      });
      const result = {
        success: true,
        summary: "Done",
        pullRequestUrl: "https://codehost.example/pr/1",
        failureReason: "",
        costUsd: 0.42,
        durationMs: 1234,
        tokenUsage: { inputTokens: 10, outputTokens: 20, cachedInputTokens: 5 },
      };
      const done = await store.transition({
        runId: run.id,
        from: ["Running"],
        to: "Succeeded",
        reason: "ok",
        patch: { result, costUsd: 0.42 },
      });
      expect(done).toMatchObject({ backend: "local", logRef: "/logs/a.log", attachment, result, costUsd: 0.42 });
      await store.close();
      expect(await (await reopen()).getRun(run.id)).toEqual(done);
    });
  });

  describe("updateRunning", () => {
    it("records cost, attachment and log of a Running run without a transition", async () => {
      const { store } = await open();
      const run = await runIn(store, "Running");
      await store.updateRunning(run.id, { costUsd: 0.1, attachment: { pid: 1 } });
      await store.updateRunning(run.id, { costUsd: 0.25, logRef: "/l" });
      expect(await store.getRun(run.id)).toMatchObject({
        state: "Running",
        costUsd: 0.25,
        attachment: { pid: 1 },
        logRef: "/l",
        reason: run.reason,
      });
      expect(await store.transitions(run.id)).toHaveLength(2);
    });

    it("records the branch of a Running run, keeps it through later patches and its end, and returns it", async () => {
      const { store } = await open();
      const run = await runIn(store, "Running");
      expect(run.branch).toBeUndefined();
      await store.updateRunning(run.id, { logRef: "/l", branch: "errand/42-fix-it" });
      await store.updateRunning(run.id, { costUsd: 0.5 });
      expect(await store.getRun(run.id)).toMatchObject({ branch: "errand/42-fix-it", costUsd: 0.5 });
      const ended = await store.transition({ runId: run.id, from: ["Running"], to: "Succeeded", reason: "done" });
      expect(ended?.branch).toBe("errand/42-fix-it");
      expect((await store.listRuns()).find((r) => r.id === run.id)?.branch).toBe("errand/42-fix-it");
    });

    it("leaves a run that ended meanwhile as it ended, and refuses an unknown run", async () => {
      const { store } = await open();
      const run = await runIn(store, "Failed");
      await store.updateRunning(run.id, { costUsd: 9 });
      expect(await store.getRun(run.id)).toEqual(run);
      await expectCode(store.updateRunning("run_00000000000000000000000000", { costUsd: 1 }), "ERR_NOT_FOUND");
    });
  });
}
