import { describe, expect, it } from "vitest";
import { createCommentThrottle } from "../../../src/sources/progress-comment/comment-throttle.js";
import { ManualClock } from "../../helpers/manual-clock.js";

/** A throttle over a manual clock that records each write with the clock's time. */
function recorded(options: { fail?: boolean } = {}) {
  const clock = new ManualClock();
  const writes: Array<{ at: number; text: string }> = [];
  const throttle = createCommentThrottle({
    intervalMs: 10_000,
    clock,
    lastWriteAt: clock.now(),
    write: async (text) => {
      writes.push({ at: clock.now(), text });
      if (options.fail) throw new Error("the host said no");
    },
  });
  return { clock, writes, throttle, start: clock.now() };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("comment throttle", () => {
  it("coalesces: many texts within an interval make one write, the latest, once the interval passed", async () => {
    const { clock, writes, throttle, start } = recorded();
    for (let i = 1; i <= 50; i++) throttle.offer(`step ${i}`);
    clock.advance(9_999);
    await settle();
    expect(writes).toEqual([]);
    clock.advance(1);
    await settle();
    expect(writes).toEqual([{ at: start + 10_000, text: "step 50" }]);
    throttle.offer("step 51");
    clock.advance(5_000);
    throttle.offer("step 52");
    clock.advance(5_000);
    await settle();
    expect(writes.map((w) => w.text)).toEqual(["step 50", "step 52"]);
  });

  it("writes at most once per interval however the texts arrive", async () => {
    const { clock, writes, throttle } = recorded();
    for (let ms = 0; ms < 120_000; ms += 700) {
      throttle.offer(`at ${ms}`);
      clock.advance(700);
      await settle();
    }
    expect(writes.length).toBeGreaterThanOrEqual(11);
    for (let i = 1; i < writes.length; i++)
      expect((writes[i]?.at ?? 0) - (writes[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(10_000);
  });

  it("never drops the final text: it replaces a waiting one, waits for its turn, and nothing comes after it", async () => {
    const { clock, writes, throttle, start } = recorded();
    throttle.offer("step 1");
    let done = false;
    const finished = throttle.finish("Succeeded").then(() => {
      done = true;
    });
    throttle.offer("late step");
    await settle();
    expect([writes, done]).toEqual([[], false]);
    clock.advance(10_000);
    await finished;
    expect(writes).toEqual([{ at: start + 10_000, text: "Succeeded" }]);
    clock.advance(60_000);
    await settle();
    expect(writes).toHaveLength(1);
  });

  it("a final text offered once the interval passed is written at once", async () => {
    const { clock, writes, throttle } = recorded();
    clock.advance(30_000);
    await throttle.finish("Failed: cost limit");
    expect(writes.map((w) => w.text)).toEqual(["Failed: cost limit"]);
  });

  it("flush writes a waiting final text at once (shutdown)", async () => {
    const { writes, throttle } = recorded();
    void throttle.finish("Cancelled");
    await throttle.flush();
    expect(writes.map((w) => w.text)).toEqual(["Cancelled"]);
  });

  it("a failed write does not stop the next ones", async () => {
    const { clock, writes, throttle } = recorded({ fail: true });
    throttle.offer("one");
    clock.advance(10_000);
    await settle();
    throttle.offer("two");
    clock.advance(10_000);
    await settle();
    expect(writes.map((w) => w.text)).toEqual(["one", "two"]);
  });
});
