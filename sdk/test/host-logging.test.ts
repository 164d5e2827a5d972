import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { captureLogger } from "../src/testing/index.js";
import { ticket } from "./support/echo-plugin.js";
import { runHostScript } from "./support/host-script.js";
import {
  connectChannel,
  type LogFields,
  type Logger,
  PluginExitedError,
  PluginStartError,
  type RemoteChannel,
} from "./support/internals.js";

const HOST_CASES = fileURLToPath(new URL("./fixtures/plugins/host-cases.mjs", import.meta.url));
const SECRET = "xoxb-host-secret-4711";

const open: RemoteChannel[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function connect(logger: Logger, extra: Record<string, unknown> = {}) {
  const channel = await connectChannel({
    command: process.execPath,
    args: [HOST_CASES],
    logger,
    env: { ERRAND_LOG_LEVEL: "debug" },
    ...extra,
  });
  open.push(channel);
  return channel;
}

/** A Logger as adapters to pino or winston are written: a class whose methods use `this`. */
class ClassLogger implements Logger {
  constructor(
    readonly records: { level: string; msg: string; fields: LogFields }[] = [],
    private readonly base: LogFields = {},
  ) {}
  private write(level: string, msg: string, fields: LogFields = {}) {
    this.records.push({ level, msg, fields: { ...this.base, ...fields } });
  }
  debug(msg: string, fields?: LogFields) {
    this.write("debug", msg, fields);
  }
  info(msg: string, fields?: LogFields) {
    this.write("info", msg, fields);
  }
  warn(msg: string, fields?: LogFields) {
    this.write("warn", msg, fields);
  }
  error(msg: string, fields?: LogFields) {
    this.write("error", msg, fields);
  }
  child(fields: LogFields): Logger {
    return new ClassLogger(this.records, { ...this.base, ...fields });
  }
}

describe("the host's logger", () => {
  it("forwards the plugin's records to a class-based logger, methods called with their `this`", async () => {
    const logger = new ClassLogger();
    const channel = await connect(logger);
    await channel.notify("log", ticket("ok"));
    await expect
      .poll(() => logger.records.filter((r) => r.msg.startsWith("record at ")).map((r) => r.level))
      .toEqual(["debug", "info", "warn", "error"]);
    expect(logger.records.find((r) => r.msg === "record at warn")?.fields).toMatchObject({
      plugin: "host-cases.mjs",
      level_name: "warn",
    });
  });

  it("a logger that throws cannot crash the host: start, calls and close still work", async () => {
    const thrower: Logger = {
      debug: () => {
        throw new Error("debug broke");
      },
      info: () => {
        throw new Error("info broke");
      },
      warn: () => {
        throw new Error("warn broke");
      },
      error: () => {
        throw new Error("error broke");
      },
      child: () => thrower,
    };
    const channel = await connect(thrower);
    await expect(channel.notify("log", ticket("ok"))).resolves.toHaveProperty("deliveryId");
    await new Promise((r) => setTimeout(r, 100));
    await channel.close();
    expect(channel.exitStatus).toEqual({ code: 0, signal: null });
  });

  it("masks the secrets in what it hands a caller's logger, also in plugin stderr it forwards", async () => {
    const logger = captureLogger();
    const channel = await connect(logger, { secrets: { tok: SECRET } });
    const error = await channel.notify("leak-and-exit", ticket("ok")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PluginExitedError);
    await expect.poll(() => logger.records.some((r) => r.msg === "plugin exited unexpectedly")).toBe(true);
    const everything = JSON.stringify(logger.records);
    expect(everything).toContain("about to fail with token [redacted]");
    expect(everything).not.toContain(SECRET);
  });

  it("the default logger masks every line it writes to stderr (a real host process)", async () => {
    const run = await runHostScript(`
      const channel = await sdk.connectChannel({ command: process.execPath, args: [${JSON.stringify(HOST_CASES)}], secrets: { tok: ${JSON.stringify(SECRET)} } });
      const error = await channel.notify("leak-and-exit", { id: "1", title: "t", labels: [] }).catch((e) => e);
      console.log(error.code, error.message);
    `);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("about to fail with token [redacted]");
    expect(run.stderr).toContain("plugin exited unexpectedly");
    expect(run.stdout).toContain("ERR_PLUGIN_EXITED");
    expect(run.stderr + run.stdout).not.toContain(SECRET);
  });
});

describe("errors of a remote channel never carry a secret value", () => {
  it("the stderr tail of a plugin that died mid-call is masked", async () => {
    const channel = await connect(captureLogger(), { secrets: { tok: SECRET } });
    const error = (await channel.notify("leak-and-exit", ticket("ok")).catch((e: unknown) => e)) as PluginExitedError;
    expect(error).toBeInstanceOf(PluginExitedError);
    expect(error.message).toContain("about to fail with token [redacted]");
    expect(`${error.message} ${error.hint} ${error.stack}`).not.toContain(SECRET);
  });

  it("the stderr tail of a plugin that died in its Handshake is masked", async () => {
    const error = (await connectChannel({
      command: process.execPath,
      args: [HOST_CASES],
      config: { mode: "init-leak" },
      secrets: { tok: SECRET },
      logger: captureLogger(),
    }).catch((e: unknown) => e)) as PluginStartError;
    expect(error).toBeInstanceOf(PluginStartError);
    expect(error.message).toContain("init: token [redacted] was refused");
    expect(`${error.message} ${error.stack}`).not.toContain(SECRET);
  });

  it("a plugin's error message that quotes a secret is masked", async () => {
    const channel = await connect(captureLogger(), { secrets: { tok: SECRET } });
    const error = (await channel.notify("leak-error", ticket("ok")).catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ code: "ERR_INTERNAL" });
    expect(error.message).toBe("host_cases.notify: the target refused token [redacted]");
    expect(String((error as { cause?: Error }).cause?.message)).not.toContain(SECRET);
  });
});
