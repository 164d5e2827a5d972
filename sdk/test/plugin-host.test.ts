import { afterEach, describe, expect, it } from "vitest";
import { connectEcho, recordFile, ticket, waitForExit } from "./support/echo-plugin.js";
import {
  CancelledError,
  DeadlineExceededError,
  ErrorCode,
  InvalidConfigError,
  PluginExitedError,
  RateLimitedError,
  type RemoteChannel,
  VersionMismatchError,
} from "./support/internals.js";

const open: RemoteChannel[] = [];
async function connect(...args: Parameters<typeof connectEcho>) {
  const channel = await connectEcho(...args);
  open.push(channel);
  return channel;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe("connectChannel with a real plugin process", () => {
  it("completes the handshake and delivers config, secrets and every RPC", async () => {
    const channel = await connect({ config: { channel_id: "C1" }, secrets: { token: "xoxb-secret-value" } });
    expect(channel).toMatchObject({ name: "echo", version: "1.2.3", interfaceVersion: 1 });
    expect(channel.pluginVersions).toEqual([1]);

    const start = JSON.parse(
      (await channel.notifyStart(ticket("a"), { engine: "claude", taskRunId: "run-1" })).deliveryId!,
    );
    expect(start).toEqual({
      kind: "notifyStart",
      id: "42",
      taskRunId: "run-1",
      engine: "claude",
      config: { channel_id: "C1" },
      secretNames: ["token"],
      state: { initializedWith: ["channel_id"] },
    });
    const note = JSON.parse((await channel.notify("50% done", ticket("a"), { taskRunId: "run-1" })).deliveryId!);
    expect(note).toMatchObject({ kind: "notify", message: "50% done", taskRunId: "run-1" });
    const done = JSON.parse(
      (
        await channel.notifyComplete(ticket("a"), {
          success: true,
          summary: "ok",
          pullRequestUrl: "",
          failureReason: "",
          costUsd: 0.42,
        })
      ).deliveryId!,
    );
    expect(done).toMatchObject({ kind: "notifyComplete", success: true, costUsd: 0.42 });
  });

  it("maps every typed error the plugin throws back to the same class and code", async () => {
    const channel = await connect();
    for (const code of Object.values(ErrorCode)) {
      const error = await channel.notify("x", ticket(`fail:${code}`)).catch((e: unknown) => e);
      expect(error, code).toMatchObject({ code, hint: "this is a test" });
    }
    const limited = await channel.notify("x", ticket("fail:ERR_RATE_LIMITED")).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect((limited as RateLimitedError).retryAfterMs).toBe(1500);
  });

  it("answers DEADLINE_EXCEEDED on time when a handler ignores its signal", async () => {
    const channel = await connect();
    const started = Date.now();
    const error = await channel.notify("x", ticket("hang"), { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(Date.now() - started).toBeLessThan(1500);
    // The plugin is still healthy afterwards.
    await expect(channel.notify("x", ticket("ok"))).resolves.toHaveProperty("deliveryId");
  });

  it("aborts the handler's signal when the deadline passes or the host cancels", async () => {
    const record = recordFile();
    const channel = await connect({ env: { ECHO_RECORD_FILE: record.path } });
    await expect(channel.notify("x", ticket("hang-signal"), { timeoutMs: 200 })).rejects.toBeInstanceOf(
      DeadlineExceededError,
    );
    const controller = new AbortController();
    const pending = channel.notifyStart(ticket("hang-signal"), { signal: controller.signal });
    setTimeout(() => controller.abort(new CancelledError("host gave up")), 100);
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    await expect.poll(() => record.entries().length).toBe(2);
    expect(record.entries()).toEqual([
      { kind: "notify", aborted: true, reason: "ERR_DEADLINE_EXCEEDED" },
      { kind: "notifyStart", aborted: true, reason: "ERR_CANCELLED" },
    ]);
  });

  it("refuses a plugin whose config is invalid with the plugin's typed error and hint", async () => {
    const error = await connectEcho({ config: { fail_init: true } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect(error).toMatchObject({ hint: "remove fail_init" });
  });

  it("refuses a plugin that shares no interface version, naming both sides", async () => {
    const error = await connectEcho({ env: { ECHO_VERSIONS: "2,3" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VersionMismatchError);
    expect((error as Error).message).toMatch(/offers interface version 2.*this host supports 1/);
  });

  it("serves many concurrent calls", async () => {
    const channel = await connect();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => channel.notify(`m${i}`, ticket("ok", { id: String(i) }))),
    );
    expect(results.map((r) => JSON.parse(r.deliveryId!).id)).toEqual(Array.from({ length: 200 }, (_, i) => String(i)));
  });

  it("reports a plugin that crashes mid-call as exited, with an exit event", async () => {
    const channel = await connect();
    const exits: unknown[] = [];
    channel.on("exit", (e) => exits.push(e));
    const error = await channel.notify("x", ticket("crash")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PluginExitedError);
    expect((error as Error).message).toMatch(/code 3/);
    await expect.poll(() => exits).toEqual([{ code: 3, signal: null, expected: false }]);
    await expect(channel.notify("x", ticket("ok"))).rejects.toBeInstanceOf(PluginExitedError);
  });

  it("close() with calls in flight aborts them and ends the process well inside 2 s", async () => {
    const channel = await connect();
    const inFlight = [channel.notify("x", ticket("hang")), channel.notify("x", ticket("hang-signal"))].map((p) =>
      p.catch((e: unknown) => e),
    );
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await channel.close();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(channel.exitStatus).toEqual({ code: 0, signal: null });
    for (const error of await Promise.all(inFlight)) expect(error).toBeInstanceOf(CancelledError);
  });

  it("SIGTERM with calls in flight ends the process promptly", async () => {
    const channel = await connect();
    const inFlight = channel.notify("x", ticket("hang")).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    process.kill(channel.pid!, "SIGTERM");
    expect(await waitForExit(channel.pid!, 2000)).toBeLessThan(2000);
    expect(await inFlight).toMatchObject({ code: expect.stringMatching(/ERR_CANCELLED|ERR_PLUGIN_EXITED/) });
  });

  it("ignores SIGINT (the host decides when a plugin stops)", async () => {
    const channel = await connect();
    process.kill(channel.pid!, "SIGINT");
    await new Promise((r) => setTimeout(r, 200));
    await expect(channel.notify("x", ticket("ok"))).resolves.toHaveProperty("deliveryId");
  });

  it("keeps stdout clean: console output in a handler goes to stderr", async () => {
    const channel = await connect();
    await channel.notify("x", ticket("stdout"));
    await new Promise((r) => setTimeout(r, 100));
    expect(channel.strayStdout).toEqual([]);
  });
});
