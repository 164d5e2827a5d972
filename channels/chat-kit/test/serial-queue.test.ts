import { CancelledError, DeadlineExceededError } from "@errand/channel-sdk";
import { describe, expect, it } from "vitest";
import { createSerialQueue } from "../src/serial-queue.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("createSerialQueue", () => {
  it("gives one turn at a time, in call order", async () => {
    const queue = createSerialQueue();
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const job = (name: string, ms: number) =>
      queue.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        order.push(`end ${name}`);
        running--;
        return name;
      });
    // The first job is the slowest: a plain Promise.all would finish it last.
    expect(await Promise.all([job("a", 60), job("b", 5), job("c", 20)])).toEqual(["a", "b", "c"]);
    expect(order).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(most).toBe(1);
    expect(queue.busy).toBe(false);
  });

  it("counts waiters and reports busy while a turn is held", async () => {
    const queue = createSerialQueue();
    expect(queue.busy).toBe(false);
    const release = await queue.acquire();
    expect(queue.busy).toBe(true);
    const second = queue.acquire();
    const third = queue.acquire();
    expect(queue.waiting).toBe(2);
    release();
    release(); // a second call must not hand out a second turn
    const releaseSecond = await second;
    expect(queue.waiting).toBe(1);
    let thirdGranted = false;
    void third.then(() => (thirdGranted = true));
    await tick();
    expect(thirdGranted).toBe(false);
    releaseSecond();
    (await third)();
    expect(queue.busy).toBe(false);
  });

  it("lets an aborted waiter leave at once; the others keep their order", async () => {
    const queue = createSerialQueue();
    const release = await queue.acquire();
    const order: string[] = [];
    const controller = new AbortController();
    const first = queue.run(() => order.push("first"));
    const second = queue.run(() => order.push("second"), controller.signal);
    const third = queue.run(() => order.push("third"));
    controller.abort();
    await expect(second).rejects.toBeInstanceOf(CancelledError);
    expect(queue.waiting).toBe(2);
    release();
    await Promise.all([first, third]);
    expect(order).toEqual(["first", "third"]);
  });

  it("rejects with the signal's reason as a typed error, and refuses an already aborted signal", async () => {
    const queue = createSerialQueue();
    const release = await queue.acquire();
    await expect(queue.acquire(AbortSignal.timeout(30))).rejects.toBeInstanceOf(DeadlineExceededError);
    const reason = new CancelledError("shutting down");
    await expect(queue.acquire(AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(queue.waiting).toBe(0);
    release();
    expect(queue.busy).toBe(false);
  });

  it("releases the turn when the job throws", async () => {
    const queue = createSerialQueue();
    await expect(queue.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(queue.busy).toBe(false);
    expect(await queue.run(() => "next")).toBe("next");
  });
});
