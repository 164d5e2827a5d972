import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ticket } from "./support/echo-plugin.js";
import {
  CONFIG_HINT,
  connectChannel,
  defineChannel,
  ErrorCode,
  formatConfigPath,
  InvalidArgumentError,
  InvalidConfigError,
  loadChannel,
  type StandardSchemaV1,
  silentLogger,
  validateConfig,
} from "./support/internals.js";

const handlers = { notify() {}, notifyStart() {}, notifyComplete() {} };
const SCHEMA_PLUGIN = fileURLToPath(new URL("./fixtures/plugins/config-schema.mjs", import.meta.url));

/** A Standard Schema written by hand, as any other library would present it. */
function requireKeys(...keys: string[]): StandardSchemaV1<unknown, Record<string, string>> {
  return {
    "~standard": {
      version: 1,
      vendor: "hand-written",
      validate: async (value) => {
        const config = value as Record<string, unknown>;
        const missing = keys.filter((key) => typeof config[key] !== "string");
        return missing.length > 0
          ? { issues: missing.map((key) => ({ message: "expected string", path: [{ key }] })) }
          : { value: config as Record<string, string> };
      },
    },
  };
}

async function refusal(promise: Promise<unknown>): Promise<InvalidConfigError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidConfigError);
  return error as InvalidConfigError;
}

describe("formatConfigPath", () => {
  it("writes paths as the user finds the value in their config", () => {
    expect(formatConfigPath(undefined)).toBe("config");
    expect(formatConfigPath(["channel_id"])).toBe("config.channel_id");
    expect(formatConfigPath(["headers", "X-Api-Key"])).toBe('config.headers["X-Api-Key"]');
    expect(formatConfigPath(["ids", 0, { key: "name" }])).toBe("config.ids[0].name");
  });
});

describe("validateConfig", () => {
  it("returns the schema's output, transformed", async () => {
    const schema = z.object({ retries: z.coerce.number().default(2), url: z.url().transform((u) => new URL(u).host) });
    await expect(validateConfig(schema, { url: "https://example.com/x" })).resolves.toEqual({
      retries: 2,
      url: "example.com",
    });
  });

  it("lists every issue with its path, with a hint, in one InvalidConfigError", async () => {
    const schema = z.strictObject({ channel_id: z.string(), retries: z.number().int().optional() });
    const error = await refusal(validateConfig(schema, { retries: 1.5, extra: 1 }, { label: "chat_x" }));
    expect(error.code).toBe(ErrorCode.InvalidConfig);
    expect(error.message).toMatch(/^chat_x: invalid config \(3 problems\): /);
    expect(error.message).toContain("config.channel_id: Invalid input: expected string, received undefined");
    expect(error.message).toContain("config.retries: Invalid input: expected int, received number");
    expect(error.message).toContain('config: Unrecognized key: "extra"');
    expect(error.hint).toBe(CONFIG_HINT);
  });

  it("takes any Standard Schema, sync or async, and the caller's hint", async () => {
    const error = await refusal(validateConfig(requireKeys("a", "b"), {}, { hint: "see the README" }));
    expect(error.message).toBe("invalid config (2 problems): config.a: expected string; config.b: expected string");
    expect(error.hint).toBe("see the README");
    await expect(validateConfig(requireKeys("a"), { a: "x" })).resolves.toEqual({ a: "x" });
  });

  it("refuses when a schema reports failure with no issues, or throws", async () => {
    const silent: StandardSchemaV1 = { "~standard": { version: 1, vendor: "x", validate: () => ({ issues: [] }) } };
    expect((await refusal(validateConfig(silent, {}))).message).toContain(
      "refused by the config schema without a reason",
    );
    const throwing = z.object({
      a: z.string().transform(() => {
        throw new Error("boom");
      }),
    });
    const error = await refusal(validateConfig(throwing, { a: "x" }));
    expect(error.message).toBe("the config schema failed: boom");
    expect((error.cause as Error).message).toBe("boom");
  });
});

describe("defineChannel with a configSchema", () => {
  it("refuses a configSchema that is not a Standard Schema", () => {
    expect(() =>
      defineChannel({ name: "x", version: "1.0.0", configSchema: { parse() {} } as never, ...handlers }),
    ).toThrow(/configSchema must be a Standard Schema v1/);
  });

  it("gives init and the handlers the schema's output, and refuses a bad config before init runs", async () => {
    const seen: unknown[] = [];
    const channel = defineChannel({
      name: "typed",
      version: "1.0.0",
      configSchema: z.strictObject({ channel_id: z.string().trim(), retries: z.coerce.number().default(2) }),
      init(config) {
        seen.push(config);
        return { prefix: config.channel_id.toUpperCase() };
      },
      notify: (_message, _ticket, ctx) => ({ deliveryId: `${ctx.state.prefix}:${ctx.config.retries}` }),
      notifyStart: () => ({}),
      notifyComplete: () => ({}),
    });
    const loaded = await loadChannel(channel, { config: { channel_id: " c1 ", retries: "3" }, logger: silentLogger });
    await expect(loaded.notify("hi", ticket("t"))).resolves.toEqual({ deliveryId: "C1:3" });
    expect(seen).toEqual([{ channel_id: "c1", retries: 3 }]);
    await loaded.close();

    const error = await refusal(loadChannel(channel, { config: { channel_id: 7 }, logger: silentLogger }));
    expect(error.message).toBe(
      "typed: invalid config: config.channel_id: Invalid input: expected string, received number",
    );
    expect(seen).toHaveLength(1);
  });

  it("keeps refusing a config that is not JSON data before the schema sees it", async () => {
    const channel = defineChannel({ name: "typed", version: "1.0.0", configSchema: requireKeys("a"), ...handlers });
    await expect(
      loadChannel(channel, { config: { a: () => 1 } as never, logger: silentLogger }),
    ).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});

describe("a plugin with a configSchema, over gRPC", () => {
  const connect = (config: Record<string, unknown>) =>
    connectChannel({ command: process.execPath, args: [SCHEMA_PLUGIN], config, logger: silentLogger });

  it("sends every issue, the stable code and the hint to the host", async () => {
    const error = await refusal(connect({ retries: "x", colour: "red" }));
    expect(error.code).toBe("ERR_INVALID_CONFIG");
    expect(error.message).toContain("schema_plugin: invalid config (3 problems)");
    expect(error.message).toContain("config.channel_id: Invalid input: expected string, received undefined");
    expect(error.message).toContain("config.retries: Invalid input: expected number, received NaN");
    expect(error.message).toContain('config: Unrecognized key: "colour"');
    expect(error.hint).toBe(CONFIG_HINT);
  });

  it("hands the handlers the transformed config", async () => {
    const channel = await connect({ channel_id: "C1", retries: "4" });
    try {
      await expect(channel.notify("hi", ticket("t"))).resolves.toEqual({
        deliveryId: '{"channel_id":"C1","retries":4}',
      });
    } finally {
      await channel.close();
    }
  });
});
