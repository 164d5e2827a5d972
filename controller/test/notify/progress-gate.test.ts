import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createProgressGate } from "../../src/notify/progress-gate.js";

describe("progress gate", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function gate(perMinute: number) {
    const flushed: [string, string][] = [];
    return { flushed, gate: createProgressGate<string>({ perMinute, flush: (runId, item) => flushed.push([runId, item]) }) };
  }

  it("sends the first message at once and coalesces a burst to its latest, sent when the interval has passed", () => {
    const { gate: g, flushed } = gate(6);
    expect(g.offer("run_1", "a")).toBe(true);
    expect(["b", "c", "d"].map((m) => g.offer("run_1", m))).toEqual([false, false, false]);
    vi.advanceTimersByTime(9_999);
    expect(flushed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(flushed).toEqual([["run_1", "d"]]);
    // The flush started a new interval.
    expect(g.offer("run_1", "e")).toBe(false);
    vi.advanceTimersByTime(10_000);
    expect(flushed).toEqual([
      ["run_1", "d"],
      ["run_1", "e"],
    ]);
    vi.advanceTimersByTime(10_000);
    expect(g.offer("run_1", "f")).toBe(true);
  });

  it("limits each run on its own", () => {
    const { gate: g } = gate(6);
    expect(g.offer("run_1", "a")).toBe(true);
    expect(g.offer("run_2", "a")).toBe(true);
    expect(g.offer("run_1", "b")).toBe(false);
  });

  it("drops a held message once the run finished: it would arrive after the completion", () => {
    const { gate: g, flushed } = gate(6);
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
    const on = gate(6);
    on.gate.offer("run_1", "a");
    on.gate.offer("run_1", "b");
    on.gate.close();
    vi.advanceTimersByTime(60_000);
    expect(on.flushed).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
