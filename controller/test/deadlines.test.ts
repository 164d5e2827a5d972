import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
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

  // A real process: what matters is whether Node's event loop is held open.
  it("does not keep a process alive: cancelled deadlines leave no timer, pending ones do not hold the loop", {
    timeout: 15_000,
  }, async () => {
    // The built module (npm test builds first): Node 20 cannot load the .ts source by itself.
    const source = fileURLToPath(new URL("../dist/webhook/deadlines.js", import.meta.url));
    const script = `
      const { DeadlineQueue } = await import(${JSON.stringify(source)});
      const queue = new DeadlineQueue(60_000);
      queue.cancel(queue.add(() => {}));
      queue.add(() => console.log("expired"));
    `;
    // Killed after 10 s (the deadline is 60 s away): a held loop fails the test instead of hanging it.
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ["--input-type=module", "-e", script], { timeout: 10_000 }, (error, out) =>
        error ? reject(error) : resolve(out),
      );
    });
    expect(stdout).toBe("");
  });
});
