import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { CancelledError, DeadlineExceededError, RateLimitedError } from "../../src/errors.js";
import { createThrottle } from "../../src/helpers/throttle.js";

const since = (start: number) => performance.now() - start;
// Timers may fire a millisecond or two early relative to performance.now().
const SLACK = 5;

describe("createThrottle", () => {
  it("grants the first slot of a key at once and spaces the next by intervalMs", async () => {
    const throttle = createThrottle({ intervalMs: 150 });
    const start = performance.now();
    await throttle.wait("c1");
    expect(since(start)).toBeLessThan(50);
    await throttle.wait("c1");
    expect(since(start)).toBeGreaterThanOrEqual(150 - SLACK);
  });

  it("serves callers of one key in FIFO order, at least intervalMs apart", async () => {
    const throttle = createThrottle({ intervalMs: 60 });
    const granted: { index: number; at: number }[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        throttle.wait("c1").then(() => granted.push({ index, at: performance.now() })),
      ),
    );
    expect(granted.map((g) => g.index)).toEqual([0, 1, 2, 3, 4, 5]);
    for (let i = 1; i < granted.length; i++) {
      expect(granted[i]!.at - granted[i - 1]!.at).toBeGreaterThanOrEqual(60 - SLACK);
    }
  });

  it("does not make one key wait for another", async () => {
    const throttle = createThrottle({ intervalMs: 400 });
    await throttle.wait("busy");
    const queued = throttle.wait("busy");
    expect(throttle.pending("busy")).toBe(1);
    const start = performance.now();
    await throttle.wait("other");
    await throttle.wait("third");
    expect(since(start)).toBeLessThan(100);
    throttle.penalize("busy", 1); // no effect on the queued waiter's order
    await queued;
  });

  it("lets an aborted waiter leave the queue at once without disturbing the others", async () => {
    const throttle = createThrottle({ intervalMs: 120 });
    await throttle.wait("k");
    const order: string[] = [];
    const controller = new AbortController();
    const first = throttle.wait("k").then(() => order.push("first"));
    const second = throttle.wait("k", controller.signal).then(
      () => order.push("second"),
      (error: unknown) => {
        order.push("second aborted");
        throw error;
      },
    );
    const third = throttle.wait("k").then(() => order.push("third"));
    const start = performance.now();
    controller.abort();
    await expect(second).rejects.toBeInstanceOf(CancelledError);
    expect(since(start)).toBeLessThan(50);
    expect(throttle.pending("k")).toBe(2);
    await Promise.all([first, third]);
    expect(order).toEqual(["second aborted", "first", "third"]);
    // The third caller took the aborted one's place: two intervals, not three.
    expect(since(start)).toBeLessThan(3 * 120 - 20);
  });

  it("rejects with DeadlineExceededError when the signal times out", async () => {
    const throttle = createThrottle({ intervalMs: 10_000 });
    await throttle.wait("k");
    const start = performance.now();
    await expect(throttle.wait("k", AbortSignal.timeout(50))).rejects.toBeInstanceOf(DeadlineExceededError);
    expect(since(start)).toBeLessThan(1000);
    expect(throttle.pending("k")).toBe(0);
  });

  it("rejects an already aborted caller without taking a slot", async () => {
    const throttle = createThrottle({ intervalMs: 10_000 });
    const reason = new CancelledError("shutting down");
    await expect(throttle.wait("k", AbortSignal.abort(reason))).rejects.toBe(reason);
    const start = performance.now();
    await throttle.wait("k");
    expect(since(start)).toBeLessThan(50);
  });

  it("penalize delays the key's next slot, and a shorter penalty never shortens it", async () => {
    const throttle = createThrottle({ intervalMs: 10 });
    throttle.penalize("k", 300);
    throttle.penalize("k", 50);
    const start = performance.now();
    await throttle.wait("other");
    expect(since(start)).toBeLessThan(50);
    await throttle.wait("k");
    expect(since(start)).toBeGreaterThanOrEqual(300 - SLACK);
  });

  it("penalize pushes back a waiter already in the queue", async () => {
    const throttle = createThrottle({ intervalMs: 50 });
    await throttle.wait("k");
    const start = performance.now();
    const waiting = throttle.wait("k");
    throttle.penalize("k", 250);
    await waiting;
    expect(since(start)).toBeGreaterThanOrEqual(250 - SLACK);
  });

  it("run penalizes the key by a RateLimitedError's retryAfterMs and rethrows it", async () => {
    const throttle = createThrottle({ intervalMs: 10 });
    const limited = new RateLimitedError("429", { retryAfterMs: 250 });
    await expect(throttle.run("k", () => Promise.reject(limited))).rejects.toBe(limited);
    const start = performance.now();
    expect(await throttle.run("k", () => "sent")).toBe("sent");
    expect(since(start)).toBeGreaterThanOrEqual(250 - SLACK);
  });

  it("msUntilSlot says how long until a key's next slot: 0 when free, the interval or a penalty otherwise", async () => {
    const throttle = createThrottle({ intervalMs: 400 });
    expect(throttle.msUntilSlot("k")).toBe(0);
    await throttle.wait("k");
    expect(throttle.msUntilSlot("k")).toBeGreaterThan(300);
    expect(throttle.msUntilSlot("k")).toBeLessThanOrEqual(400);
    expect(throttle.msUntilSlot("other")).toBe(0);
    throttle.penalize("k", 5000);
    expect(throttle.msUntilSlot("k")).toBeGreaterThan(4900);
    const quick = createThrottle({ intervalMs: 40 });
    await quick.wait("k");
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(quick.msUntilSlot("k")).toBe(0);
  });

  it("with completion spacing, measures the interval from the end of the previous slot", async () => {
    const throttle = createThrottle({ intervalMs: 150, spacing: "completion" });
    const marks: number[] = [];
    const start = performance.now();
    // The first slot's work takes 300 ms, longer than the interval.
    const first = throttle.run("k", async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      marks.push(since(start));
    });
    const second = throttle.run("k", () => marks.push(since(start)));
    await Promise.all([first, second]);
    expect(marks[0]).toBeGreaterThanOrEqual(300 - SLACK);
    // Not at 150 ms (start spacing) but 150 ms after the first slot ended.
    expect(marks[1]! - marks[0]!).toBeGreaterThanOrEqual(150 - SLACK);
  });

  it("with completion spacing, a slot from wait is held until its release, which is idempotent", async () => {
    const throttle = createThrottle({ intervalMs: 50, spacing: "completion" });
    const release = await throttle.wait("k");
    expect(throttle.msUntilSlot("k")).toBeGreaterThanOrEqual(50);
    let granted = false;
    const next = throttle.wait("k").then((r) => {
      granted = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(granted).toBe(false);
    const released = performance.now();
    release();
    release();
    (await next)();
    expect(performance.now() - released).toBeGreaterThanOrEqual(50 - SLACK);
    expect(throttle.pending("k")).toBe(0);
  });

  it("with completion spacing, a penalty during a held slot still applies after its release", async () => {
    const throttle = createThrottle({ intervalMs: 20, spacing: "completion" });
    const release = await throttle.wait("k");
    throttle.penalize("k", 300);
    const start = performance.now();
    release();
    await throttle.wait("k");
    expect(since(start)).toBeGreaterThanOrEqual(300 - SLACK - 10);
  });

  it("rejects an unknown spacing", () => {
    expect(() => createThrottle({ intervalMs: 1, spacing: "end" as "start" })).toThrow(/spacing/);
  });

  it("forgets idle keys once their next slot has come", async () => {
    const throttle = createThrottle({ intervalMs: 30 });
    await Promise.all(Array.from({ length: 500 }, (_, i) => throttle.wait(`key-${i}`)));
    expect(throttle.size).toBe(500);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(throttle.size).toBe(0);
  });

  it("rejects a negative or non-finite interval", () => {
    expect(() => createThrottle({ intervalMs: -1 })).toThrow(RangeError);
    expect(() => createThrottle({ intervalMs: Number.NaN })).toThrow(/intervalMs/);
  });

  it("keeps no timer alive when idle: a process with a long penalty exits at once", async () => {
    const dist = fileURLToPath(new URL("../../dist/helpers/throttle.js", import.meta.url));
    const script = `
      const { createThrottle } = await import(${JSON.stringify(dist)});
      const t = createThrottle({ intervalMs: 60000 });
      await t.wait("a");
      t.penalize("b", 60000);
      const c = new AbortController();
      const w = t.wait("a", c.signal).catch(() => {});
      c.abort();
      await w;
      console.log("done");`;
    const start = performance.now();
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
      timeout: 10_000,
    });
    expect(stdout.trim()).toBe("done");
    expect(since(start)).toBeLessThan(5000);
  });
});
