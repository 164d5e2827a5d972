import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { credentials } from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../test/support/temp-dir.js";
import { CHANNEL_METHODS } from "../src/plugin/deferred-channel-service.js";
import { CONTROLLER_SERVICE, HEALTH_SERVICE } from "../src/plugin/early-services.js";
import { ECHO_PLUGIN, ticket } from "./support/echo-plugin.js";
import { silentLogger } from "./support/internals.js";
import {
  callHealth,
  createClients,
  GRPCControllerService,
  HealthCheckRequest,
  HealthService,
  launchPlugin,
  NotificationChannelService,
  type PluginClients,
  sendNotification,
  unaryCall,
} from "./support/protocol-internals.js";

// A plugin writes its handshake line and answers the health check before
// the protobuf runtime and its generated codecs load (about 25 ms of a cold
// start); they load while the host connects. The gate holds them back.

const GATE_HOOKS = fileURLToPath(new URL("./fixtures/codec-gate/register.mjs", import.meta.url));

describe("a plugin's codecs load after its handshake line", () => {
  let clients: PluginClients | undefined;
  let kill: (() => void) | undefined;
  afterEach(() => {
    clients?.close();
    kill?.();
  });

  const launchGated = async (gate: string) => {
    const proc = await launchPlugin({
      command: process.execPath,
      args: ["--import", GATE_HOOKS, ECHO_PLUGIN],
      env: { CODEC_GATE: gate },
      startTimeoutMs: 10_000,
      supportedVersions: [1],
      transport: "unix",
      logger: silentLogger,
    });
    kill = () => proc.child.kill("SIGKILL");
    clients = createClients(`unix:${proc.line.address}`, credentials.createInsecure());
    return clients;
  };
  const handshake = (c: PluginClients) =>
    unaryCall(
      c.channel,
      "handshake",
      { interfaceVersion: 1, supportedVersions: [1], config: {}, secrets: {}, hostName: "test", hostVersion: "0" },
      { timeoutMs: 10_000 },
    );

  it("answers health while they cannot load, and a Handshake that came meanwhile once they have", async () => {
    const gate = join(tempDir("errand-gate-"), "open");
    const c = await launchGated(gate);
    await callHealth(c, 5000);
    let answered = false;
    const pending = handshake(c).then((answer) => {
      answered = true;
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answered).toBe(false);
    writeFileSync(gate, "open");
    await expect(pending).resolves.toMatchObject({ name: "echo", interfaceVersion: 1 });
    // Now served by the loaded service itself.
    const answer = await sendNotification(
      c.channel,
      { kind: "notifyStart", ticket: ticket("hi") },
      { timeoutMs: 5000 },
    );
    expect(answer.deliveryId).toContain("notifyStart");
  });

  it("answers every call INTERNAL, naming why, when they cannot load", async () => {
    const gate = join(tempDir("errand-gate-"), "fail");
    writeFileSync(gate, "fail");
    const c = await launchGated(gate);
    await callHealth(c, 5000);
    await expect(handshake(c)).rejects.toMatchObject({
      code: 13,
      details: expect.stringContaining("could not load its errand.v1 codecs (the codec gate refused to load"),
    });
  });
});

describe("the services coded by hand", () => {
  const HEALTH_REQUESTS = ["", "plugin", "ünïcödé ✓", "x".repeat(300)];

  it("decode health requests as the generated codec does, unknown fields and all", () => {
    for (const service of HEALTH_REQUESTS) {
      const bytes = HealthCheckRequest.encode({ service }).finish();
      // Unknown fields of every wire type around the known one: skipped alike.
      const unknown = Uint8Array.from([
        0x10, 0x96, 0x01, 0x19, 1, 2, 3, 4, 5, 6, 7, 8, 0x25, 1, 2, 3, 4, 0x32, 2, 9, 9,
      ]);
      for (const input of [bytes, Uint8Array.from([...unknown, ...bytes]), Uint8Array.from([...bytes, ...unknown])]) {
        expect(HEALTH_SERVICE.check.requestDeserialize(Buffer.from(input))).toEqual(
          HealthService.check.requestDeserialize(Buffer.from(input)),
        );
      }
    }
    const truncated = Buffer.from(HealthCheckRequest.encode({ service: "plugin" }).finish().subarray(0, 4));
    expect(() => HealthService.check.requestDeserialize(truncated)).toThrow();
    expect(() => HEALTH_SERVICE.check.requestDeserialize(truncated)).toThrow(RangeError);
  });

  it("encode health answers byte for byte as the generated codec does", () => {
    for (const status of [0, 1, 2, 3] as const) {
      expect(HEALTH_SERVICE.watch.responseSerialize({ status })).toEqual(
        HealthService.watch.responseSerialize({ status }),
      );
    }
  });

  it("have the generated definitions' paths and streaming flags, as has the channel's placeholder", () => {
    const shape = (service: Record<string, { path: string; requestStream: boolean; responseStream: boolean }>) =>
      Object.fromEntries(Object.entries(service).map(([key, m]) => [key, [m.path, m.requestStream, m.responseStream]]));
    expect(shape(HEALTH_SERVICE)).toEqual(shape(HealthService));
    expect(shape(CONTROLLER_SERVICE)).toEqual(shape(GRPCControllerService));
    expect(CONTROLLER_SERVICE.shutdown.responseSerialize({})).toEqual(
      GRPCControllerService.shutdown.responseSerialize({}),
    );
    expect(CHANNEL_METHODS).toEqual(
      Object.fromEntries(Object.entries(NotificationChannelService).map(([key, m]) => [key, m.path])),
    );
  });
});
