import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createProgressGate } from "../../src/notify/progress-gate.js";

describe("progress gate", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function gate(perMinute: number) {
    const flushed: [string, string][] = [];
    return {
      flushed,
      gate: createProgressGate<string>({ perMinute, flush: (runId, item) => flushed.push([runId, item]) }),
    };
  }

  it("lets a minute's worth through at once, then coalesces to the latest, sent as soon as one more is allowed", () => {
    const { gate: g, flushed } = gate(6);
    expect(["a", "b", "c", "d", "e", "f"].map((m) => g.offer("run_1", m))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(["g", "h", "i"].map((m) => g.offer("run_1", m))).toEqual([false, false, false]);
    vi.advanceTimersByTime(9_999);
    expect(flushed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(flushed).toEqual([["run_1", "i"]]);
    // The flush spent the allowance again: the next one waits a whole interval.
    expect(g.offer("run_1", "j")).toBe(false);
    vi.advanceTimersByTime(10_000);
    expect(flushed).toEqual([
      ["run_1", "i"],
      ["run_1", "j"],
    ]);
    // A quiet minute refills it.
    vi.advanceTimersByTime(60_000);
    expect(["k", "l", "m", "n", "o", "p", "q"].map((m) => g.offer("run_1", m))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it("60 a minute lets five steps 400 ms apart through, each at once", () => {
    const { gate: g, flushed } = gate(60);
    const sent = [1, 2, 3, 4, 5].map((n) => {
      vi.advanceTimersByTime(400);
      return g.offer("run_1", `step ${n}`);
    });
    expect(sent).toEqual([true, true, true, true, true]);
    expect(flushed).toEqual([]);
  });

  it("refills one message per interval, not all at once", () => {
    const { gate: g, flushed } = gate(60);
    for (let i = 0; i < 60; i++) expect(g.offer("run_1", `m${i}`)).toBe(true);
    expect(g.offer("run_1", "held")).toBe(false);
    vi.advanceTimersByTime(1_000);
    expect(flushed).toEqual([["run_1", "held"]]);
    vi.advanceTimersByTime(500);
    expect(g.offer("run_1", "half an interval later")).toBe(false);
    vi.advanceTimersByTime(500);
    expect(flushed.at(-1)).toEqual(["run_1", "half an interval later"]);
  });

  it("limits each run on its own", () => {
    const { gate: g } = gate(1);
    expect(g.offer("run_1", "a")).toBe(true);
    expect(g.offer("run_2", "a")).toBe(true);
    expect(g.offer("run_1", "b")).toBe(false);
  });

  it("drops a held message once the run finished: it would arrive after the completion", () => {
    const { gate: g, flushed } = gate(1);
    g.offer("run_1", "a");
    g.offer("run_1", "stale");
    g.finish("run_1");
    vi.advanceTimersByTime(60_000);
    expect(flushed).toEqual([]);
    expect(g.offer("run_1", "new attempt")).toBe(true);
  });

  it("sends nothing with perMinute 0, and close() drops everything held", () => {
    const off = gate(0);
    expect(off.gate.offer("run_1", "a")).toBe(false);
    const on = gate(1);
    on.gate.offer("run_1", "a");
    on.gate.offer("run_1", "b");
    on.gate.close();
    vi.advanceTimersByTime(60_000);
    expect(on.flushed).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
