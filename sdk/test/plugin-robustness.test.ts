import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { credentials, status as GrpcStatus } from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { captureLogger } from "../src/testing/index.js";
import { launchEcho, ticket, waitForExit } from "./support/echo-plugin.js";
import { connectChannel, type RemoteChannel, silentLogger } from "./support/internals.js";
import {
  createClients,
  type PluginProcess,
  HealthCheckResponse_ServingStatus as Serving,
  sendNotification,
  Ticket,
  unaryCall,
} from "./support/protocol-internals.js";
import { EXIT_MONITOR, monitorFile, ROBUST_PLUGIN, rawUnary } from "./support/robust-plugin.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function launchRobust(env: Record<string, string> = {}): Promise<PluginProcess> {
  const proc = await launchEcho({ args: [ROBUST_PLUGIN], env });
  cleanups.push(() => proc.child.kill("SIGKILL"));
  return proc;
}

async function connectRobust(options: Partial<Parameters<typeof connectChannel>[0]> = {}): Promise<RemoteChannel> {
  const channel = await connectChannel({
    command: process.execPath,
    args: [ROBUST_PLUGIN],
    logger: silentLogger,
    ...options,
  });
  cleanups.push(() => channel.close());
  return channel;
}

const targetOf = (proc: PluginProcess) => `unix:${proc.line.address}`;
const socketDirOf = (proc: PluginProcess) => dirname(proc.line.address);

describe("a plugin whose host is gone", () => {
  it("shuts down with exit 0 and removes its socket directory although writing its logs fails with EPIPE", async () => {
    const monitor = monitorFile();
    // A host that reads neither the plugin's stderr nor anything else, and is then killed outright.
    const hostScript = `
      const { spawn } = require("node:child_process");
      const child = spawn(process.execPath, [${JSON.stringify(ROBUST_PLUGIN)}], {
        env: { ...process.env, ERRAND_PLUGIN_MAGIC_COOKIE: "errand-notification-channel", PLUGIN_PROTOCOL_VERSIONS: "1",
               ERRAND_LOG_LEVEL: "debug", NODE_OPTIONS: ${JSON.stringify(`--require ${EXIT_MONITOR}`)}, EXIT_MONITOR_FILE: ${JSON.stringify(monitor.path)} },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let line = "";
      child.stdout.on("data", (d) => { line += d; if (line.includes("\\n")) process.stdout.write(child.pid + "|" + line); });
      setInterval(() => {}, 1000);
    `;
    const host = spawn(process.execPath, ["-e", hostScript], { stdio: ["ignore", "pipe", "inherit"] });
    cleanups.push(() => host.kill("SIGKILL"));
    let output = "";
    await new Promise<void>((resolve) =>
      host.stdout.on("data", (data) => {
        output += String(data);
        if (output.includes("\n")) resolve();
      }),
    );
    const [pid, , , , address] = output.trim().split("|");
    expect(existsSync(address!)).toBe(true);

    host.kill("SIGKILL");
    await waitForExit(Number(pid), 5000);
    expect(monitor.events()).toEqual([{ pid: Number(pid), event: "exit", code: 0 }]);
    expect(existsSync(dirname(address!))).toBe(false);
  });
});

describe("logging inside a plugin never fails it", () => {
  it("a circular value logged by a handler is written as [Circular] and the message counts as delivered", async () => {
    const logs = captureLogger();
    const channel = await connectRobust({ logger: logs });
    await expect(channel.notify("log-circular", ticket("t"))).resolves.toEqual({
      deliveryId: "delivered:log-circular",
    });
    await expect
      .poll(() => logs.records.find((r) => r.msg === "got response"))
      .toMatchObject({
        res: { status: 500, headers: { "content-type": "text/plain" }, self: "[Circular]" },
        big: "10",
      });
  });

  it("an unhandled rejection with a circular reason is logged by the SDK's handler and the plugin serves on", async () => {
    const logs = captureLogger();
    const channel = await connectRobust({ logger: logs });
    await expect(channel.notify("reject-circular", ticket("t"))).resolves.toEqual({
      deliveryId: "delivered:reject-circular",
    });
    await expect
      .poll(() => logs.records.find((r) => r.msg === "unhandled promise rejection in the channel"))
      .toMatchObject({
        error: { status: 500, self: "[Circular]" },
      });
    await expect(channel.notify("again", ticket("t"))).resolves.toEqual({ deliveryId: "delivered:again" });
    expect(channel.exitStatus).toBeUndefined();
  });
});

describe("the socket directory goes on every way out", () => {
  it("an uncaught exception is logged as a JSON line, ends the process with exit 1 and removes the directory", async () => {
    const proc = await launchRobust();
    const clients = createClients(targetOf(proc), credentials.createInsecure());
    cleanups.push(() => clients.close());
    await sendNotification(
      clients.channel,
      { kind: "notify", message: "throw-uncaught", ticket: ticket("t") },
      { timeoutMs: 5000 },
    );
    expect(await proc.exited).toEqual({ code: 1, signal: null });
    expect(proc.stderrTail()).toMatch(
      /"@message":"uncaught exception in the channel".*"message":"deliberate uncaught exception"/,
    );
    expect(existsSync(socketDirOf(proc))).toBe(false);
  });

  it.each(["SIGTERM", "SIGHUP"] as const)("%s shuts down gracefully: exit 0, directory removed", async (signal) => {
    const proc = await launchRobust();
    proc.child.kill(signal);
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(socketDirOf(proc))).toBe(false);
  });

  it("process.exit inside a handler removes the directory", async () => {
    const proc = await launchRobust();
    const outcome = await rawUnary(targetOf(proc), "Notify", notifyRequest("exit:3"));
    expect(outcome.error?.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(await proc.exited).toEqual({ code: 3, signal: null });
    expect(existsSync(socketDirOf(proc))).toBe(false);
  });
});

describe("errors sent to the host", () => {
  it("a 150 kB error message and hint arrive truncated, promptly, with their code, and the next calls work", async () => {
    const channel = await connectRobust();
    const started = Date.now();
    const error = await channel.notify("big-error:150000", ticket("t"), { timeoutMs: 4000 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toMatchObject({ code: "ERR_REJECTED" });
    const { message, hint } = error as { message: string; hint: string };
    expect(message).toMatch(/start x+… \[message truncated: 150010 bytes in all\]$/);
    expect(Buffer.byteLength(message)).toBeLessThan(8192 + 100);
    expect(hint).toMatch(/^hint x+… \[hint truncated: 150009 bytes in all\]$/);
    expect(Buffer.byteLength(hint)).toBeLessThanOrEqual(2048);
    for (let i = 0; i < 3; i++) {
      await expect(channel.notify(`after ${i}`, ticket("t"), { timeoutMs: 2000 })).resolves.toEqual({
        deliveryId: `delivered:after ${i}`,
      });
    }
  });

  it("so does one whose every character needs escaping (three UTF-8 bytes, nine characters percent-encoded)", async () => {
    const channel = await connectRobust({ env: { ROBUST_CHAR: "€" } });
    const error = await channel.notify("big-error:50000", ticket("t"), { timeoutMs: 4000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "ERR_REJECTED",
      message: expect.stringMatching(/€… \[message truncated: 150010 bytes in all\]$/),
    });
    await expect(channel.notify("after", ticket("t"), { timeoutMs: 2000 })).resolves.toEqual({
      deliveryId: "delivered:after",
    });
  });

  it("mask the plugin's secrets in the message and the hint, as its logs do", async () => {
    const channel = await connectRobust({ secrets: { tok: "xoxb-SUPERSECRET-123" } });
    const error = (await channel.notify("secret-error", ticket("t")).catch((e: unknown) => e)) as {
      message: string;
      hint: string;
    };
    expect(error).toMatchObject({ code: "ERR_REJECTED" });
    expect(error.message).toMatch(/auth failed for token \[redacted\]/);
    expect(error.hint).toBe("rotate [redacted]");
    expect(JSON.stringify([error.message, error.hint])).not.toContain("SUPERSECRET");
  });
});

/** A NotifyRequest with a ticket, encoded. */
function notifyRequest(message: string): Uint8Array {
  const writer = new BinaryWriter();
  writer.tag(1, WireType.LengthDelimited).string(message);
  writer.tag(2, WireType.LengthDelimited).bytes(Ticket.encode(ticket("t")).finish());
  return writer.finish();
}

/** A NotifyCompleteRequest with a ticket and, when given, a TaskResult built by `result`. */
function completeRequest(result?: (writer: BinaryWriter) => void): Uint8Array {
  const writer = new BinaryWriter();
  writer.tag(1, WireType.LengthDelimited).bytes(Ticket.encode(ticket("t")).finish());
  if (result) {
    const inner = new BinaryWriter();
    inner.tag(1, WireType.Varint).bool(true);
    result(inner);
    writer.tag(3, WireType.LengthDelimited).bytes(inner.finish());
  }
  return writer.finish();
}

describe("requests the plugin cannot use", () => {
  const expectInvalid = async (proc: PluginProcess, method: string, body: Uint8Array, details: RegExp) => {
    const { error } = await rawUnary(targetOf(proc), method, body);
    expect(error?.code, error?.details).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(error?.details).toMatch(details);
    expect(error?.metadata.get("errand-error-code")).toEqual(["ERR_INVALID_ARGUMENT"]);
  };

  it("NotifyComplete without a result is ERR_INVALID_ARGUMENT, never a made-up failure", async () => {
    const proc = await launchRobust();
    await expectInvalid(proc, "NotifyComplete", completeRequest(), /^NotifyComplete: result is missing$/);
  });

  it("64-bit counts beyond Number.MAX_SAFE_INTEGER are ERR_INVALID_ARGUMENT naming the field", async () => {
    const proc = await launchRobust();
    await expectInvalid(
      proc,
      "NotifyComplete",
      completeRequest((w) => w.tag(6, WireType.Varint).uint64(2n ** 60n)),
      /^NotifyComplete: result\.duration_ms is 1152921504606846976, more than this plugin can represent exactly/,
    );
    const usage = new BinaryWriter()
      .tag(1, WireType.Varint)
      .uint64(5)
      .tag(2, WireType.Varint)
      .uint64(2n ** 62n)
      .finish();
    await expectInvalid(
      proc,
      "NotifyComplete",
      completeRequest((w) => w.tag(7, WireType.LengthDelimited).bytes(usage)),
      /^NotifyComplete: result\.token_usage\.output_tokens is 4611686018427387904/,
    );
    // Within the range, the same request is delivered.
    const { error } = await rawUnary(
      targetOf(proc),
      "NotifyComplete",
      completeRequest((w) => w.tag(6, WireType.Varint).uint64(2 ** 53 - 1)),
    );
    expect(error).toBeNull();
  });

  it("bytes that are no message, and a request without a ticket, are ERR_INVALID_ARGUMENT; the plugin serves on", async () => {
    const proc = await launchRobust();
    await expectInvalid(
      proc,
      "Notify",
      Buffer.from([0x0a, 0xff, 0xff, 0xff]),
      /^Notify: the request could not be decoded/,
    );
    await expectInvalid(proc, "Handshake", Buffer.from([0x0f]), /^Handshake: the request could not be decoded/);
    await expectInvalid(proc, "NotifyStart", new Uint8Array(0), /^NotifyStart: ticket is missing$/);
    const { error } = await rawUnary(targetOf(proc), "Notify", notifyRequest("fine"));
    expect(error).toBeNull();
  });
});

describe("health during shutdown", () => {
  it("Watch reports NOT_SERVING when shutdown begins, and Check answers NOT_SERVING until the process exits", async () => {
    const proc = await launchRobust({ ROBUST_CLOSE_MS: "1000" });
    const clients = createClients(targetOf(proc), credentials.createInsecure());
    cleanups.push(() => clients.close());
    // Initialized, so shutdown has a channel to close (and takes a while).
    const handshake = {
      interfaceVersion: 1,
      supportedVersions: [1],
      config: {},
      secrets: {},
      hostName: "test",
      hostVersion: "",
    };
    await unaryCall(clients.channel, "handshake", handshake, { timeoutMs: 5000 });

    const watched: Serving[] = [];
    const watch = clients.health.watch({ service: "plugin" });
    watch.on("data", (response: { status: Serving }) => watched.push(response.status));
    watch.on("error", () => {});
    await expect.poll(() => watched).toEqual([Serving.SERVING]);

    await unaryCall(clients.controller, "shutdown", {}, { timeoutMs: 2000 });
    let checked: Serving | undefined;
    for (let i = 0; i < 20 && checked !== Serving.NOT_SERVING; i++) {
      checked = (await unaryCall(clients.health, "check", { service: "plugin" }, { timeoutMs: 1000 })).status;
      if (checked !== Serving.NOT_SERVING) await new Promise((r) => setTimeout(r, 10));
    }
    expect(checked).toBe(Serving.NOT_SERVING);
    await expect.poll(() => watched).toEqual([Serving.SERVING, Serving.NOT_SERVING]);
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(socketDirOf(proc))).toBe(false);
  });
});
