import { fileURLToPath } from "node:url";
import { credentials } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ECHO_PLUGIN, ticket } from "./support/echo-plugin.js";
import {
  type Channel,
  connectChannel,
  defineChannel,
  loadChannel,
  type RemoteChannel,
  silentLogger,
  type TaskResult,
  type Ticket,
} from "./support/internals.js";
import { callHealth, createClients, launchPlugin, unaryCall } from "./support/protocol-internals.js";

const HOST_CASES = fileURLToPath(new URL("./fixtures/plugins/host-cases.mjs", import.meta.url));

// The in-process twin of host-cases.mjs: answers with what it got.
const twin = defineChannel({
  name: "host_cases",
  version: "1.0.0",
  notify: (_m, t) => ({ deliveryId: JSON.stringify({ ticket: t }) }),
  notifyStart: (t) => ({ deliveryId: JSON.stringify({ ticket: t }) }),
  notifyComplete: (t, result) => ({ deliveryId: JSON.stringify({ ticket: t, result }) }),
});

let remote: RemoteChannel;
let local: Channel;
beforeAll(async () => {
  remote = await connectChannel({ command: process.execPath, args: [HOST_CASES], logger: silentLogger });
  local = await loadChannel(twin, { logger: silentLogger });
});
afterAll(async () => {
  await remote?.close();
  await local?.close();
});

const both = () =>
  [
    ["in-process", local],
    ["remote", remote],
  ] as const;

const result: TaskResult = { success: true, summary: "s", pullRequestUrl: "", failureReason: "" };

describe("timeoutMs is checked alike in-process and remote", () => {
  it.each([Infinity, 2 ** 31, 1e12, NaN, -1, 0, "abc", null])(
    "timeoutMs %s is ERR_INVALID_ARGUMENT naming the option, never a crash",
    async (timeoutMs) => {
      const messages: string[] = [];
      for (const [, channel] of both()) {
        const error = await channel
          .notify("m", ticket("ok"), { timeoutMs: timeoutMs as number })
          .catch((e: unknown) => e);
        expect(error).toMatchObject({ code: "ERR_INVALID_ARGUMENT", hint: expect.stringMatching(/timeoutMs/) });
        messages.push((error as Error).message);
      }
      expect(messages[0]).toMatch(
        /^host_cases\.notify: options\.timeoutMs must be a number of milliseconds above 0 and at most 2147483647/,
      );
      expect(messages[1]).toBe(messages[0]);
    },
  );

  it("accepts the largest timer duration, 2^31-1 ms, on both", async () => {
    for (const [, channel] of both())
      await expect(channel.notify("m", ticket("ok"), { timeoutMs: 2 ** 31 - 1 })).resolves.toHaveProperty("deliveryId");
  });

  it("refuses bad options of the same shape alike", async () => {
    for (const [, channel] of both()) {
      await expect(channel.notifyStart(ticket("ok"), { engine: 7 as never })).rejects.toMatchObject({
        code: "ERR_INVALID_ARGUMENT",
        message: "host_cases.notifyStart: options.engine must be a string, got the number 7",
      });
      await expect(channel.notify("m", ticket("ok"), { signal: {} as never })).rejects.toMatchObject({
        code: "ERR_INVALID_ARGUMENT",
        message: expect.stringContaining("options.signal must be an AbortSignal"),
      });
      await expect(channel.notify("m", ticket("ok"), null as never)).rejects.toMatchObject({
        code: "ERR_INVALID_ARGUMENT",
      });
    }
  });

  it("startTimeoutMs, close(graceMs) and unaryCall's timeoutMs are checked too", async () => {
    await expect(
      connectChannel({ command: process.execPath, args: [ECHO_PLUGIN], startTimeoutMs: Infinity }),
    ).rejects.toMatchObject({
      code: "ERR_INVALID_ARGUMENT",
      message: expect.stringContaining("connectChannel: options.startTimeoutMs must be"),
    });
    await expect(remote.close(-1)).rejects.toMatchObject({
      code: "ERR_INVALID_ARGUMENT",
      message: expect.stringContaining("host_cases.close: graceMs"),
    });
    const proc = await launchPlugin({
      command: process.execPath,
      args: [ECHO_PLUGIN],
      startTimeoutMs: 10_000,
      supportedVersions: [1],
      transport: "unix",
      logger: silentLogger,
    });
    const clients = createClients(`unix:${proc.line.address}`, credentials.createInsecure());
    try {
      await callHealth(clients, 5000);
      await expect(
        unaryCall(clients.health, "check", { service: "plugin" }, { timeoutMs: 1e12 }),
      ).rejects.toMatchObject({ code: "ERR_INVALID_ARGUMENT" });
    } finally {
      clients.close();
      proc.child.kill("SIGKILL");
    }
  });
});

describe("tickets and results are checked alike before they are sent", () => {
  const cases: [string, Partial<Record<keyof Ticket, unknown>> | null | undefined, RegExp][] = [
    ["a null ticket", null, /: ticket is missing$/],
    ["no ticket", undefined, /: ticket is missing$/],
    ["a numeric id", { id: 42 }, /: ticket\.id must be a string, got the number 42$/],
    [
      "labels that are a string",
      { labels: "bug" },
      /: ticket\.labels must be an array of strings, got the string "bug"$/,
    ],
    ["a label that is not a string", { labels: ["ok", 3] }, /: ticket\.labels\[1\] must be a string/],
    [
      "a rawEvent with a Date",
      { rawEvent: { at: new Date(0) } },
      /: ticket\.rawEvent\.at is an object \(Date\), not plain data/,
    ],
  ];
  it.each(cases)("%s is ERR_INVALID_ARGUMENT naming the field", async (_name, fields, message) => {
    const bad = fields === null || fields === undefined ? fields : { ...ticket("ok"), ...fields };
    for (const [, channel] of both()) {
      const error = await channel.notify("m", bad as Ticket).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "ERR_INVALID_ARGUMENT", hint: expect.any(String) });
      expect((error as Error).message).toMatch(message);
    }
  });

  it.each([
    [
      "durationMs beyond Number.MAX_SAFE_INTEGER",
      { durationMs: 2 ** 60 },
      "result.durationMs must be a whole number from 0 to 9007199254740991",
    ],
    ["a negative durationMs", { durationMs: -1 }, "result.durationMs must be a whole number"],
    [
      "a fractional token count",
      { tokenUsage: { inputTokens: 1.5, outputTokens: 0, cachedInputTokens: 0 } },
      "result.tokenUsage.inputTokens must be a whole number",
    ],
    ["a success that is a string", { success: "yes" }, "result.success must be true or false"],
    ["a NaN cost", { costUsd: NaN }, "result.costUsd must be a finite number"],
  ])("a result with %s is ERR_INVALID_ARGUMENT naming the field", async (_name, fields, message) => {
    for (const [, channel] of both()) {
      await expect(channel.notifyComplete(ticket("ok"), { ...result, ...fields } as TaskResult)).rejects.toMatchObject({
        code: "ERR_INVALID_ARGUMENT",
        message: expect.stringContaining(`host_cases.notifyComplete: ${message}`),
      });
    }
    await expect(remote.notifyComplete(ticket("ok"), undefined as never)).rejects.toMatchObject({
      message: "host_cases.notifyComplete: result is missing",
    });
  });

  it('fills unset fields as proto3 does, the same for both, instead of sending "undefined"', async () => {
    const sparse = { id: "7", title: "t" } as Ticket;
    const seen = [];
    for (const [, channel] of both()) {
      const answer = await channel.notifyComplete(sparse, { success: true } as TaskResult);
      seen.push(JSON.parse(answer.deliveryId!));
    }
    expect(seen[0]).toEqual({
      ticket: {
        id: "7",
        title: "t",
        description: "",
        ticketType: "",
        repoUrl: "",
        externalUrl: "",
        labels: [],
        source: "",
      },
      result: { success: true, summary: "", pullRequestUrl: "", failureReason: "" },
    });
    expect(seen[1]).toEqual(seen[0]);
  });

  it("keeps the largest exact durations and counts intact", async () => {
    const big = {
      ...result,
      durationMs: Number.MAX_SAFE_INTEGER,
      tokenUsage: { inputTokens: Number.MAX_SAFE_INTEGER, outputTokens: 0, cachedInputTokens: 1 },
    };
    const answer = JSON.parse((await remote.notifyComplete(ticket("ok"), big)).deliveryId!) as { result: TaskResult };
    expect(answer.result).toMatchObject({ durationMs: Number.MAX_SAFE_INTEGER, tokenUsage: big.tokenUsage });
  });
});

describe("config and secrets are checked before a process starts", () => {
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  let deep: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < 40; i++) deep = { a: deep };
  it.each([
    ["a Date", { since: new Date(0) }, "options.config.since is an object (Date), not plain data"],
    ["NaN", { ratio: NaN }, "options.config.ratio is NaN"],
    ["Infinity", { nested: { max: Infinity } }, "options.config.nested.max is Infinity"],
    ["a BigInt", { id: 10n }, "options.config.id is the BigInt 10n"],
    ["a function", { hook: () => {} }, "options.config.hook is a function"],
    ["a circular reference", { loop: circular }, "options.config.loop.self refers back to an object that contains it"],
    ["undefined in a list", { list: [1, undefined] }, "options.config.list[1] is undefined"],
    ["an odd key", { "a b": [new Map()] }, 'options.config["a b"][0] is an object (Map)'],
    ["nesting deeper than the wire decodes", deep, "is nested more than 30 levels deep"],
  ])("config with %s is ERR_INVALID_ARGUMENT naming the key path, in both hosts", async (_name, config, message) => {
    const remoteError = await connectChannel({
      command: process.execPath,
      args: [HOST_CASES],
      config,
      logger: silentLogger,
    }).catch((e: unknown) => e);
    expect(remoteError).toMatchObject({
      code: "ERR_INVALID_ARGUMENT",
      message: expect.stringContaining(message),
      hint: expect.any(String),
    });
    expect((remoteError as Error).message).toMatch(/^connectChannel: options\.config[.[]/);
    const localError = await loadChannel(twin, { config, logger: silentLogger }).catch((e: unknown) => e);
    expect(localError).toMatchObject({
      code: "ERR_INVALID_ARGUMENT",
      message: (remoteError as Error).message.replace("connectChannel", "loadChannel"),
    });
  });

  it("a secret that is not a string is named, its value never shown", async () => {
    const error = await connectChannel({
      command: process.execPath,
      args: [HOST_CASES],
      secrets: { tok: 123456789 as never },
      logger: silentLogger,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "ERR_INVALID_ARGUMENT",
      message: "connectChannel: options.secrets.tok must be a string, got a value of type number",
    });
  });

  it("undefined members are left out, as both JSON and Struct do", async () => {
    const channel = await connectChannel({
      command: process.execPath,
      args: [ECHO_PLUGIN],
      config: { a: undefined, b: [1, null], c: { d: "x" } },
      logger: silentLogger,
    });
    try {
      const answer = JSON.parse((await channel.notify("m", ticket("ok"))).deliveryId!) as { config: unknown };
      expect(answer.config).toEqual({ b: [1, null], c: { d: "x" } });
    } finally {
      await channel.close();
    }
  });
});
