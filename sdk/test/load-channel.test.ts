import { describe, expect, it } from "vitest";
import { ticket } from "./support/echo-plugin.js";
import {
  CancelledError,
  DeadlineExceededError,
  defineChannel,
  InternalError,
  InvalidArgumentError,
  InvalidConfigError,
  loadChannel,
  RateLimitedError,
  silentLogger,
  VersionMismatchError,
} from "./support/internals.js";

const seen: { signal?: AbortSignal } = {};
const channel = defineChannel({
  name: "inproc",
  version: "0.0.1",
  init(config, secrets) {
    if (config.bad) throw new Error("config.bad is set");
    return { token: secrets.token, count: 0 };
  },
  notify(message, t, ctx) {
    ctx.state.count++;
    if (message === "hang") return new Promise<void>(() => {});
    if (message === "wait") {
      seen.signal = ctx.signal;
      return new Promise<void>((_resolve, reject) =>
        ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)),
      );
    }
    if (message === "limit") throw new RateLimitedError("slow down", { retryAfterMs: 1000 });
    if (message === "bug") throw new TypeError("undefined is not a function");
    return { deliveryId: `${t.id}:${ctx.state.count}:${ctx.state.token}` };
  },
  notifyStart: (_t, ctx) => ({ deliveryId: ctx.engine }),
  notifyComplete: (_t, result) => ({ deliveryId: String(result.success) }),
});

describe("loadChannel (in-process)", () => {
  it("runs init once and keeps per-instance state", async () => {
    const a = await loadChannel(channel, { secrets: { token: "A" }, logger: silentLogger });
    const b = await loadChannel(channel, { secrets: { token: "B" }, logger: silentLogger });
    expect(a).toMatchObject({ name: "inproc", version: "0.0.1", interfaceVersion: 1 });
    expect((await a.notify("x", ticket("t"))).deliveryId).toBe("42:1:A");
    expect((await a.notify("x", ticket("t"))).deliveryId).toBe("42:2:A");
    expect((await b.notify("x", ticket("t"))).deliveryId).toBe("42:1:B");
    expect((await a.notifyStart(ticket("t"), { engine: "eng" })).deliveryId).toBe("eng");
  });

  it("answers a handler that ignores its signal with DeadlineExceededError on time", async () => {
    const a = await loadChannel(channel, { logger: silentLogger });
    const started = Date.now();
    await expect(a.notify("hang", ticket("t"), { timeoutMs: 100 })).rejects.toBeInstanceOf(DeadlineExceededError);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("passes cancellation to the handler's signal, and close() aborts calls in flight", async () => {
    const a = await loadChannel(channel, { logger: silentLogger });
    const controller = new AbortController();
    const pending = a.notify("wait", ticket("t"), { signal: controller.signal });
    controller.abort(new CancelledError("stop"));
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    expect(seen.signal?.aborted).toBe(true);
    const inFlight = a.notify("wait", ticket("t"));
    await a.close();
    await expect(inFlight).rejects.toBeInstanceOf(CancelledError);
    await expect(a.notify("x", ticket("t"))).rejects.toThrow(/closed/);
  });

  it("keeps typed errors, wraps unknown ones, and refuses a call without a ticket", async () => {
    const a = await loadChannel(channel, { logger: silentLogger });
    await expect(a.notify("limit", ticket("t"))).rejects.toMatchObject({
      code: "ERR_RATE_LIMITED",
      retryAfterMs: 1000,
    });
    await expect(a.notify("bug", ticket("t"))).rejects.toBeInstanceOf(InternalError);
    await expect(a.notify("x", undefined as never)).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it("turns an untyped init failure into InvalidConfigError", async () => {
    await expect(loadChannel(channel, { config: { bad: true }, logger: silentLogger })).rejects.toBeInstanceOf(
      InvalidConfigError,
    );
  });

  it("refuses a channel that shares no interface version with the host, naming both", async () => {
    const v2 = defineChannel({ ...channel, interfaceVersions: [2] });
    await expect(loadChannel(v2, { logger: silentLogger })).rejects.toBeInstanceOf(VersionMismatchError);
    await expect(loadChannel(v2, { logger: silentLogger })).rejects.toThrow(
      /supports interface versions 2; this host supports 1/,
    );
  });
});
