import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { InvalidConfigError, UnavailableError } from "@errand/channel-sdk";
import { connectChannel, loadChannel, silentLogger } from "@errand/channel-sdk/host";
import { captureLogger, fixtures, type Sink, startSink } from "@errand/channel-sdk/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { webhookPost } from "../src/index.js";

let sink: Sink;
beforeEach(async () => {
  sink = await startSink();
});
afterEach(async () => {
  await sink.close();
});

const SECRET_PATH = "/hooks/T0KEN-s3cr3t-path";

describe("webhook_post in-process", () => {
  it("POSTs start, notify and complete as JSON with the protocol's field names", async () => {
    const channel = await loadChannel(webhookPost, {
      config: { url: `${sink.url}/hook`, headers: { "X-Team": "platform" } },
      logger: silentLogger,
    });
    await channel.notifyStart(fixtures.tickets.basic, { engine: "claude-code", taskRunId: "r1" });
    await channel.notify("halfway", fixtures.tickets.minimal, { taskRunId: "r1" });
    await channel.notifyComplete(fixtures.tickets.basic, fixtures.results.failure, { taskRunId: "r1" });
    const [start, note, done] = await sink.waitForRequests(3);
    expect(start!.headers["x-team"]).toBe("platform");
    expect(start!.headers["content-type"]).toMatch(/application\/json/);
    expect(start!.json).toMatchObject({
      event: "start",
      engine: "claude-code",
      task_run_id: "r1",
      ticket: { id: "123", external_url: expect.any(String) },
    });
    expect((start!.json as { text: string }).text).toMatch(/^Agent started working on: #123 .*, using claude-code$/);
    expect(note!.json).toMatchObject({ event: "notify", message: "halfway" });
    expect(done!.json).toMatchObject({
      event: "complete",
      result: { success: false, failure_reason: expect.any(String) },
    });
    expect((done!.json as { text: string }).text).toMatch(/^❌ Failed on/);
    await channel.close();
  });

  it("rejects bad config with the key to fix", async () => {
    await expect(loadChannel(webhookPost, { config: {}, logger: silentLogger })).rejects.toThrow(
      /exactly one of config.url and config.url_secret/,
    );
    await expect(loadChannel(webhookPost, { config: { url: "ftp://x" }, logger: silentLogger })).rejects.toBeInstanceOf(
      InvalidConfigError,
    );
    await expect(loadChannel(webhookPost, { config: { url_secret: "missing" }, logger: silentLogger })).rejects.toThrow(
      /secret "missing"/,
    );
    await expect(
      loadChannel(webhookPost, { config: { url: "http://x", headers: { a: 1 } }, logger: silentLogger }),
    ).rejects.toThrow(/config.headers/);
  });

  it("lists every problem of the config at once, never echoing a secret URL", async () => {
    const error = await loadChannel(webhookPost, {
      config: { url: "ftp://x", url_secret: "", headers: [] },
      logger: silentLogger,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect((error as Error).message).toMatch(/^webhook_post: invalid config \(4 problems\): /);
    for (const part of [
      "config.url: must use http or https, not ftp:",
      "config.url_secret: must be a secret name",
      "config.headers: must be an object",
      "config: webhook_post needs exactly one of",
    ]) {
      expect((error as Error).message).toContain(part);
    }
    const secret = await loadChannel(webhookPost, {
      config: { url_secret: "hook" },
      secrets: { hook: "not a url T0KEN-s3cr3t" },
      logger: silentLogger,
    }).catch((e: unknown) => e);
    expect((secret as Error).message).toBe('webhook_post: secret "hook" is not a valid URL');
  });

  it("retries a 503 and never prints a secret URL in errors", async () => {
    const channel = await loadChannel(webhookPost, {
      config: { url_secret: "hook" },
      secrets: { hook: `${sink.url}${SECRET_PATH}` },
      logger: silentLogger,
    });
    sink.behave([{ status: 503, times: 1 }]);
    await channel.notify("x", fixtures.tickets.basic);
    expect(sink.requests).toHaveLength(2);
    sink.behave({ status: 503 });
    const error = (await channel.notify("x", fixtures.tickets.basic).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(UnavailableError);
    expect(
      JSON.stringify({ message: error.message, cause: String((error as { cause?: unknown }).cause) }),
    ).not.toContain("T0KEN-s3cr3t");
    await channel.close();
  });

  it("sends one Idempotency-Key per notification, the same on every retry of it", async () => {
    const channel = await loadChannel(webhookPost, { config: { url: `${sink.url}/hook` }, logger: silentLogger });
    sink.behave([{ status: 503, times: 1 }]);
    await channel.notify("first", fixtures.tickets.basic);
    await channel.notify("second", fixtures.tickets.basic);
    const keys = sink.requests.map((r) => r.headers["idempotency-key"]);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    await channel.close();
  });
});

describe("webhook_post as a plugin process", () => {
  it("starts through the scaffold's launcher, the same file as a scaffold's src/bin.ts", () => {
    const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), "utf8");
    expect(read("../src/bin.ts")).toBe(read("../../../templates/common/src/bin.ts"));
  });

  it("runs its bundle through the code cache, and V8 takes it", async () => {
    const logger = captureLogger();
    const channel = await connectChannel({
      command: process.execPath,
      args: [fileURLToPath(new URL("../dist/bin.js", import.meta.url))],
      env: { ERRAND_PLUGIN_CODE_CACHE: "report" },
      config: { url: `${sink.url}/hook` },
      logger,
    });
    await channel.close();
    expect(logger.records.filter((r) => r.msg === "code cache").map((r) => r.state)).toEqual(["accepted"]);
  });

  it("serves from its bin exactly like in-process", async () => {
    const channel = await connectChannel({
      command: process.execPath,
      args: [fileURLToPath(new URL("../dist/bin.js", import.meta.url))],
      config: { url_secret: "hook" },
      secrets: { hook: `${sink.url}/hook` },
      logger: silentLogger,
    });
    try {
      expect(channel.name).toBe("webhook_post");
      await channel.notifyComplete(fixtures.tickets.unicode, fixtures.results.success, { taskRunId: "r2" });
      const [request] = await sink.waitForRequests(1);
      expect(request!.json).toMatchObject({
        event: "complete",
        task_run_id: "r2",
        ticket: { title: fixtures.tickets.unicode.title },
      });
    } finally {
      await channel.close();
    }
  });
});
