import { getEventListeners } from "node:events";
import { DeadlineExceededError } from "@errand/channel-sdk";
import { describe, expect, it } from "vitest";
import { boundedCall } from "../../src/notify/bounded-call.js";
import { trackCalls } from "../../src/notify/call-tracker.js";

/** A channel call that ends only when its signal aborts (at once if it has), as the SDK's channels do. */
const untilAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });

describe("calls tracked by a long-lived signal (the notifier's shutdown)", () => {
  it("reports every call in flight cancelled at once through one listener on the signal, and makes no signal per call", async () => {
    const shutdown = new AbortController();
    const tracker = trackCalls(shutdown.signal);
    const seen: (AbortSignal | undefined)[] = [];
    const finishedEarly = await boundedCall(async (signal) => seen.push(signal), { timeoutMs: 60_000, tracker });
    // Calls that would end only by their own deadline: the shutdown does not wait for them.
    const inFlight = Array.from({ length: 200 }, () =>
      boundedCall(
        (signal) => {
          seen.push(signal);
          return new Promise(() => {});
        },
        { timeoutMs: 60_000, tracker },
      ),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(1);

    shutdown.abort(new Error("the notifier is closing"));
    const reports = await Promise.all(inFlight);
    expect(finishedEarly.outcome).toBe("ok");
    expect(new Set(reports.map((r) => r.outcome))).toEqual(new Set(["cancelled"]));
    expect(reports[0]!.error?.message).toContain("the notifier is closing");
    expect(seen).toHaveLength(201);
    expect(seen.every((s) => s === undefined)).toBe(true);
  });

  it("cancels at once, without making it, a call that starts after the signal aborted", async () => {
    const shutdown = new AbortController();
    const tracker = trackCalls(shutdown.signal);
    shutdown.abort(new Error("closed"));
    let made = 0;
    const report = await boundedCall(
      () => {
        made++;
        return new Promise(() => {});
      },
      { timeoutMs: 60_000, tracker },
    );
    expect(report.outcome).toBe("cancelled");
    expect(made).toBe(0);
  });
});

describe("a bounded call", () => {
  it("ends at its bound a call that never answers, as a timeout", async () => {
    const tracker = trackCalls(new AbortController().signal);
    const started = performance.now();
    const report = await boundedCall(() => new Promise(() => {}), { timeoutMs: 20, tracker });
    expect(report.outcome).toBe("timeout");
    expect(report.error?.code).toBe("ERR_DEADLINE_EXCEEDED");
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("hands the caller's signal to the call as it is: its abort cancels the call, without a listener of its own", async () => {
    const caller = new AbortController();
    let given: AbortSignal | undefined;
    const cancelled = boundedCall(
      (signal) => {
        given = signal;
        return untilAborted(signal!);
      },
      { timeoutMs: 60_000, signal: caller.signal },
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(given).toBe(caller.signal);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(1);
    caller.abort(new Error("the loop gave up"));
    const report = await cancelled;
    expect(report.outcome).toBe("cancelled");
    expect(report.error?.message).toContain("the loop gave up");
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  });

  it("counts a call its caller gave up on at the caller's own bound as a timeout, and starts none on a signal already aborted", async () => {
    const observerBound = new AbortController();
    const timedOut = boundedCall((signal) => untilAborted(signal!), {
      timeoutMs: 60_000,
      signal: observerBound.signal,
    });
    observerBound.abort(new DOMException("run observer did not finish within 5 ms", "TimeoutError"));
    expect((await timedOut).outcome).toBe("timeout");
    let started = 0;
    const late = await boundedCall(
      async () => {
        started++;
      },
      { timeoutMs: 60_000, signal: AbortSignal.abort(new Error("gone")) },
    );
    expect(late.outcome).toBe("cancelled");
    expect(started).toBe(0);
  });

  it("reports a failed call as an error, and a deadline the channel reports as a timeout", async () => {
    const failed = await boundedCall(() => Promise.reject(new Error("boom")), { timeoutMs: 60_000 });
    expect(failed.outcome).toBe("error");
    expect(failed.error?.message).toContain("boom");
    const late = await boundedCall(() => Promise.reject(new DeadlineExceededError("the plugin's deadline")), {
      timeoutMs: 60_000,
    });
    expect(late.outcome).toBe("timeout");
  });
});
