import { captureLogger } from "@errand/channel-sdk/testing";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { createNotifier } from "../../src/notify/create-notifier.js";
import type { Notifier } from "../../src/notify/notifier-types.js";
import { events, NEVER, recordFile, testChannelEntry } from "./helpers/fixtures.js";

let notifier: Notifier | undefined;
afterEach(async () => {
  await notifier?.close();
  notifier = undefined;
});

describe("each channel's own queue", () => {
  it("a channel that is behind gets the latest progress, not a backlog; a prompt one beside it gets every line", async () => {
    const [prompt, slow] = [recordFile(), recordFile()];
    notifier = createNotifier({
      // Each slow call takes 800 ms of its 1 s bound: lines waiting a second or more are stale by then.
      channels: [
        testChannelEntry(0, prompt.path, { label: "prompt" }),
        testChannelEntry(1, slow.path, { label: "slow", config: { delay_ms: 800 } }),
      ],
      secrets: {},
      logger: captureLogger(),
      registry: new Registry(),
      callTimeoutMs: 1_000,
      progressPerMinute: 60,
    });
    await notifier.start();
    const steps = ["p1", "p2", "p3", "p4", "p5"];
    const started = notifier.observer.observe(events.started(), NEVER);
    const lines = steps.map((step) => notifier!.observer.observe(events.progress(step), NEVER));
    await Promise.all([started, ...lines]);
    await notifier.observer.observe(events.finished(), NEVER);

    const seen = (record: typeof prompt) => record.entries().map((e) => e.message ?? e.kind);
    expect(seen(prompt)).toEqual(["notifyStart", ...steps, "notifyComplete"]);
    const slowSeen = seen(slow);
    expect(slowSeen[0]).toBe("notifyStart");
    expect(slowSeen.at(-1)).toBe("notifyComplete");
    const slowLines = slowSeen.slice(1, -1);
    // Fewer lines, in order, ending with the latest.
    expect(slowLines.length).toBeLessThan(steps.length);
    expect(slowLines.at(-1)).toBe("p5");
    expect(slowLines).toEqual(steps.filter((s) => slowLines.includes(s)));
  });

  it("sends nothing of a run after its completion, and a channel still behind at the end sends only its latest line first", async () => {
    const slow = recordFile();
    notifier = createNotifier({
      channels: [testChannelEntry(0, slow.path, { label: "slow", config: { delay_ms: 300 } })],
      secrets: {},
      logger: captureLogger(),
      registry: new Registry(),
      progressPerMinute: 60,
    });
    await notifier.start();
    const pending = [
      events.started(),
      events.progress("p1"),
      events.progress("p2"),
      events.progress("p3"),
      events.finished(),
      events.progress("late"),
    ].map((e) => notifier!.observer.observe(e, NEVER));
    await Promise.all(pending);
    expect(slow.entries().map((e) => e.message ?? e.kind)).toEqual(["notifyStart", "p3", "notifyComplete"]);
  });
});
