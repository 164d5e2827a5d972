import { describe, expect, it } from "vitest";
import { DeadlineQueue } from "../src/webhook/deadlines.js";

describe("DeadlineQueue", () => {
  it("expires deadlines in order after their time, and never a cancelled one", async () => {
    const queue = new DeadlineQueue(100);
    const fired: Array<[string, number]> = [];
    const started = performance.now();
    queue.add(() => fired.push(["a", performance.now() - started]));
    const b = queue.add(() => fired.push(["b", performance.now() - started]));
    await new Promise((r) => setTimeout(r, 30));
    queue.add(() => fired.push(["c", performance.now() - started]));
    queue.cancel(b);
    expect(queue.size).toBe(2);
    await new Promise((r) => setTimeout(r, 400));
    expect(fired.map(([name]) => name)).toEqual(["a", "c"]);
    // Timers may fire a hair early by the clock used here; allow a millisecond.
    expect(fired[0]?.[1]).toBeGreaterThanOrEqual(99);
    expect(fired[1]?.[1]).toBeGreaterThanOrEqual(129);
    expect(queue.size).toBe(0);
  });

  it("keeps expiring the rest when a callback throws", async () => {
    const queue = new DeadlineQueue(20);
    const fired: string[] = [];
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.on("uncaughtException", onError);
    try {
      queue.add(() => {
        throw new Error("first fails");
      });
      await new Promise((r) => setTimeout(r, 5));
      queue.add(() => fired.push("second"));
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      process.off("uncaughtException", onError);
    }
    expect(fired).toEqual(["second"]);
  });
});
