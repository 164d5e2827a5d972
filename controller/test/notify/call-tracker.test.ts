import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { boundedCall } from "../../src/notify/bounded-call.js";
import { trackCalls } from "../../src/notify/call-tracker.js";

/** A channel call that ends only when its signal aborts. */
const untilAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));

describe("calls tracked by a long-lived signal (the notifier's shutdown)", () => {
  it("cancels every call in flight through one listener on the signal, and nothing after a call ended", async () => {
    const shutdown = new AbortController();
    const tracker = trackCalls(shutdown.signal);
    const seen: AbortSignal[] = [];
    const finishedEarly = await boundedCall(async (signal) => seen.push(signal), { timeoutMs: 60_000, tracker });
    const inFlight = Array.from({ length: 200 }, () =>
      boundedCall(
        (signal) => {
          seen.push(signal);
          return untilAborted(signal);
        },
        { timeoutMs: 60_000, tracker },
      ),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(1);

    shutdown.abort(new Error("the notifier is closing"));
    const reports = await Promise.all(inFlight);
    expect(finishedEarly.outcome).toBe("ok");
    expect(seen[0]!.aborted).toBe(false);
    expect(new Set(reports.map((r) => r.outcome))).toEqual(new Set(["cancelled"]));
    expect(reports[0]!.error?.message).toContain("the notifier is closing");
    expect(seen.slice(1).every((s) => s.aborted)).toBe(true);
  });

  it("cancels at once a call that starts after the signal aborted", async () => {
    const shutdown = new AbortController();
    const tracker = trackCalls(shutdown.signal);
    shutdown.abort(new Error("closed"));
    const report = await boundedCall(untilAborted, { timeoutMs: 60_000, tracker });
    expect(report.outcome).toBe("cancelled");
  });

  it("still ends a call at its bound, and by the caller's own signal, as a timeout and a cancellation", async () => {
    const tracker = trackCalls(new AbortController().signal);
    const caller = new AbortController();
    const cancelled = boundedCall(untilAborted, { timeoutMs: 60_000, signal: caller.signal, tracker });
    caller.abort(new Error("the loop gave up"));
    const timedOut = await boundedCall(() => new Promise(() => {}), { timeoutMs: 20, tracker });
    expect((await cancelled).outcome).toBe("cancelled");
    expect(timedOut.outcome).toBe("timeout");
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  });
});
