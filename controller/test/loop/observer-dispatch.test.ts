import { silentLogger } from "@errand/channel-sdk/host";
import { describe, expect, it } from "vitest";
import { createObserverDispatch } from "../../src/loop/observer-dispatch.js";
import type { RunEvent, RunObserver } from "../../src/runs/run-event.js";
import { TICKET, taskRun } from "../notify/helpers/fixtures.js";

describe("the observers' dispatch", () => {
  it("close() aborts the signal of every observer call in flight with its reason, and only those", async () => {
    const signals: AbortSignal[] = [];
    const observer: RunObserver = {
      name: "slow",
      ordersEvents: true,
      observe: (event, signal) => {
        signals.push(signal);
        if (event.type === "finished") return Promise.resolve();
        return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
      },
      close: async () => {},
    };
    const dispatch = createObserverDispatch({ observers: [observer], timeoutMs: 60_000, logger: silentLogger });
    const started = (): RunEvent => ({ type: "started", run: taskRun(), ticket: TICKET, engine: "bench" });
    await dispatch.dispatch({
      type: "finished",
      run: taskRun(),
      ticket: TICKET,
      result: { success: true, summary: "", pullRequestUrl: "", failureReason: "" },
    });
    const inFlight = Array.from({ length: 50 }, () => dispatch.dispatch(started()));

    await dispatch.close();
    await Promise.all(inFlight);
    expect(signals).toHaveLength(51);
    expect(signals[0]!.aborted).toBe(false);
    expect(signals.slice(1).every((s) => s.aborted && (s.reason as Error).message === "controller shutting down")).toBe(
      true,
    );
  });
});
