import { credentials } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchEcho, ticket } from "./support/echo-plugin.js";
import type { TaskResult } from "./support/internals.js";
import {
  createClients,
  type PartialNotificationCall,
  type PluginClients,
  type PluginProcess,
  sendNotification,
} from "./support/protocol-internals.js";

// The real echo plugin answers each call with a delivery id describing what
// its handler received, so these see the request as the plugin decoded it.
let proc: PluginProcess;
let clients: PluginClients;
beforeAll(async () => {
  proc = await launchEcho();
  clients = createClients(`unix:${proc.line.address}`, credentials.createInsecure());
});
afterAll(async () => {
  clients?.close();
  proc?.child.kill("SIGKILL");
  await proc?.exited;
});

const received = async (call: PartialNotificationCall) =>
  JSON.parse((await sendNotification(clients.channel, call, { timeoutMs: 5000 })).deliveryId) as Record<
    string,
    unknown
  >;

describe("sendNotification", () => {
  it("sends each kind as its own request, every field of the call reaching the plugin's handler", async () => {
    expect(
      await received({ kind: "notify", message: "tests are running", ticket: ticket("ok"), taskRunId: "run-1" }),
    ).toMatchObject({ kind: "notify", id: "42", message: "tests are running", taskRunId: "run-1" });
    expect(
      await received({ kind: "notifyStart", ticket: ticket("ok"), taskRunId: "run-2", engine: "codex" }),
    ).toMatchObject({ kind: "notifyStart", taskRunId: "run-2", engine: "codex" });
    expect(
      await received({
        kind: "notifyComplete",
        ticket: ticket("ok"),
        result: { success: true, summary: "done", pullRequestUrl: "", failureReason: "", costUsd: 0.25 },
        taskRunId: "run-3",
      }),
    ).toMatchObject({
      kind: "notifyComplete",
      taskRunId: "run-3",
      success: true,
      costUsd: 0.25,
    });
  });

  it("sends the fields a call leaves out unset, which the plugin reads as proto3's defaults", async () => {
    expect(await received({ kind: "notify", ticket: ticket("ok") })).toMatchObject({
      kind: "notify",
      message: "",
      taskRunId: "",
    });
    expect(await received({ kind: "notifyStart", ticket: ticket("ok") })).toMatchObject({
      kind: "notifyStart",
      engine: "",
      taskRunId: "",
    });
    expect(
      await received({ kind: "notifyComplete", ticket: ticket("ok"), result: { success: false } as TaskResult }),
    ).toMatchObject({ kind: "notifyComplete", success: false, taskRunId: "" });
  });

  it("rejects, never throws, when the kind is none of the three or the deadline cannot be expressed", async () => {
    const call = { kind: "notifyEnd", ticket: ticket("ok") } as unknown as PartialNotificationCall;
    const badKind = sendNotification(clients.channel, call, { timeoutMs: 5000 });
    await expect(badKind).rejects.toMatchObject({
      code: "ERR_INVALID_ARGUMENT",
      message: expect.stringMatching(
        /sendNotification: call\.kind must be "notify", "notifyStart" or "notifyComplete", got the string "notifyEnd"/,
      ),
    });
    await expect(
      sendNotification(clients.channel, null as unknown as PartialNotificationCall, { timeoutMs: 5000 }),
    ).rejects.toMatchObject({ code: "ERR_INVALID_ARGUMENT" });
    await expect(
      sendNotification(clients.channel, { kind: "notify", ticket: ticket("ok") }, { timeoutMs: 1e12 }),
    ).rejects.toMatchObject({ code: "ERR_INVALID_ARGUMENT" });
  });

  it("the signal cancels the call", async () => {
    const controller = new AbortController();
    const pending = sendNotification(
      clients.channel,
      { kind: "notify", ticket: ticket("hang") },
      { timeoutMs: 5000, signal: controller.signal },
    );
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 1 });
  });
});
