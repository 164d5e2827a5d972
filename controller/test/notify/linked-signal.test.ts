import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { linkSignals } from "../../src/notify/linked-signal.js";

describe("linkSignals", () => {
  it("aborts with the reason of the first source that aborts", () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = linkSignals([a.signal, b.signal]);
    expect(linked.signal.aborted).toBe(false);
    b.abort(new Error("b went"));
    a.abort(new Error("a went"));
    expect(linked.signal.aborted).toBe(true);
    expect((linked.signal.reason as Error).message).toBe("b went");
  });

  it("is aborted at once when a source already is", () => {
    const a = new AbortController();
    a.abort("early");
    expect(linkSignals([new AbortController().signal, a.signal]).signal.reason).toBe("early");
  });

  it("dispose() leaves no listener on a long-lived source, and the link is cut", () => {
    const shutdown = new AbortController();
    for (let i = 0; i < 1000; i++) linkSignals([shutdown.signal, new AbortController().signal]).dispose();
    expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(0);
    const linked = linkSignals([shutdown.signal]);
    linked.dispose();
    shutdown.abort();
    expect(linked.signal.aborted).toBe(false);
  });
});
