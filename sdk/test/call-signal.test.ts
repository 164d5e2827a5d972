import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ticket } from "./support/echo-plugin.js";
import {
  connectChannel,
  DeadlineExceededError,
  defineChannel,
  loadChannel,
  silentLogger,
} from "./support/internals.js";

// A handler's ctx.signal is made only when the handler reads it: on Node 20
// an AbortSignal costs more per call than the rest of the SDK's dispatch.
// The deadline and shutdown still end a call whose handler never reads it
// (plugin-host.test.ts, load-channel.test.ts).

const SIGNAL_COUNT_PLUGIN = fileURLToPath(new URL("./fixtures/plugins/signal-count.mjs", import.meta.url));

describe("a call's signal, in a plugin process", () => {
  it("is made only for the calls whose handler reads ctx.signal", async () => {
    const channel = await connectChannel({
      command: process.execPath,
      args: [SIGNAL_COUNT_PLUGIN],
      logger: silentLogger,
    });
    try {
      const count = async (title: string) => Number((await channel.notifyStart(ticket(title))).deliveryId);
      const before = await count("quiet");
      for (let i = 0; i < 5; i++) await count("quiet");
      expect(await count("quiet")).toBe(before);
      await count("read-signal");
      expect(await count("quiet")).toBe(before + 1);
    } finally {
      await channel.close();
    }
  });
});

describe("a call's signal, in process (loadChannel)", () => {
  const signalOf = Object.getOwnPropertyDescriptor(AbortController.prototype, "signal")!;
  afterEach(() => Object.defineProperty(AbortController.prototype, "signal", signalOf));

  /** Counts the reads of every AbortController's signal from now on. */
  const countSignalReads = () => {
    const reads = { n: 0 };
    Object.defineProperty(AbortController.prototype, "signal", {
      configurable: true,
      get(this: AbortController) {
        reads.n++;
        return signalOf.get!.call(this);
      },
    });
    return reads;
  };

  const definition = defineChannel({
    name: "lazy_signal",
    version: "1.0.0",
    notify: () => {},
    notifyStart: () => ({ deliveryId: "quiet" }),
    notifyComplete: () => {},
  });

  it("is not made for a handler that never reads it", async () => {
    const channel = await loadChannel(definition, { logger: silentLogger });
    const reads = countSignalReads();
    expect(await channel.notifyStart(ticket("quiet"))).toEqual({ deliveryId: "quiet" });
    expect(reads.n).toBe(0);
  });

  it("still ends the call at its deadline; a signal read after it is aborted with the deadline's reason", async () => {
    let read: AbortSignal | undefined;
    const slow = defineChannel({
      ...definition,
      notifyStart: async (_t, ctx) => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        read = ctx.signal;
      },
    });
    const channel = await loadChannel(slow, { logger: silentLogger });
    await expect(channel.notifyStart(ticket("slow"), { timeoutMs: 50 })).rejects.toBeInstanceOf(DeadlineExceededError);
    await expect.poll(() => read, { timeout: 2000 }).toBeDefined();
    expect(read?.aborted).toBe(true);
    expect(read?.reason).toBeInstanceOf(DeadlineExceededError);
  });
});
