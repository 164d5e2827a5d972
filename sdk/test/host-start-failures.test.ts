import { spawn } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../test/support/temp-dir.js";
import { watchExit } from "../src/host/plugin-process.js";
import { ECHO_PLUGIN, waitForExit } from "./support/echo-plugin.js";
import { connectChannel, InvalidConfigError, PluginStartError, silentLogger } from "./support/internals.js";
import { launchPlugin } from "./support/protocol-internals.js";

const HOST_CASES = fileURLToPath(new URL("./fixtures/plugins/host-cases.mjs", import.meta.url));
const FAKE_LINE = "process.stdout.write(process.env.FAKE_LINE + '\\n'); setInterval(() => {}, 1000);";

/** A fresh PLUGIN_UNIX_SOCKET_DIR, so a test can see whether the plugin removed its socket directory. */
function socketParent(): { env: Record<string, string>; leftovers: () => string[] } {
  const dir = tempDir("errand-host-test-");
  return { env: { PLUGIN_UNIX_SOCKET_DIR: dir }, leftovers: () => readdirSync(dir) };
}

/** Runs connectChannel against host-cases.mjs; resolves to the rejection. */
async function failedStart(mode: string, extra: Record<string, unknown> = {}) {
  const sockets = socketParent();
  const error = await connectChannel({
    command: process.execPath,
    args: [HOST_CASES],
    env: sockets.env,
    config: { mode },
    logger: silentLogger,
    ...extra,
  }).then(
    () => {
      throw new Error("connectChannel resolved");
    },
    (e: unknown) => e as PluginStartError,
  );
  return { error, sockets };
}

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

describe("connectChannel: a plugin that fails during its Handshake", () => {
  it("hangs in init: ERR_PLUGIN_START naming the full command line, with stderr and a hint; the process is gone and cleaned up", async () => {
    const started = Date.now();
    const { error, sockets } = await failedStart("init-hang", { startTimeoutMs: 1200 });
    expect(error).toBeInstanceOf(PluginStartError);
    expect(error.code).toBe("ERR_PLUGIN_START");
    expect(error.message).toContain(
      `${process.execPath} ${HOST_CASES}: did not complete its Handshake within the start timeout of 1200 ms`,
    );
    expect(error.message).toMatch(/\nplugin stderr:\n.*"@message":"shutting down"/s);
    expect(error.hint).toMatch(/init return quickly.*startTimeoutMs/);
    expect(Date.now() - started).toBeLessThan(1200 + 2500);
    // SIGTERM before SIGKILL: the plugin had the chance to remove its socket directory.
    expect(sockets.leftovers()).toEqual([]);
  });

  it("exits in init: ERR_PLUGIN_START (not a retryable ERR_UNAVAILABLE) with the exit status and the plugin's last words", async () => {
    const { error } = await failedStart("init-exit");
    expect(error).toBeInstanceOf(PluginStartError);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(
      `${process.execPath} ${HOST_CASES}: exited (code 2, signal null) during its Handshake`,
    );
    expect(error.message).toContain("init: cannot reach the target, giving up");
    expect(error.hint).toEqual(expect.any(String));
  });

  it("init refuses the config: the plugin's own typed error, and the plugin still gets SIGTERM so it cleans up", async () => {
    const sockets = socketParent();
    const error = await connectChannel({
      command: process.execPath,
      args: [ECHO_PLUGIN],
      env: sockets.env,
      config: { fail_init: true },
      logger: silentLogger,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect(error).toMatchObject({ hint: "remove fail_init" });
    expect((error as Error).message).toContain(`${process.execPath} ${ECHO_PLUGIN}: Handshake`);
    expect(sockets.leftovers()).toEqual([]);
  });

  it("a failed health check names the full command line and has a hint", async () => {
    const error = await connectChannel({
      command: process.execPath,
      args: ["-e", FAKE_LINE],
      env: { FAKE_LINE: "1|1|unix|/nonexistent/plugin.sock|grpc" },
      logger: silentLogger,
    }).catch((e: unknown) => e as PluginStartError);
    expect(error).toBeInstanceOf(PluginStartError);
    expect((error as Error).message).toContain(
      `${process.execPath} -e ${FAKE_LINE}: health check on /nonexistent/plugin.sock failed`,
    );
    expect((error as PluginStartError).hint).toMatch(/does not answer/);
  });
});

describe("handshake-line addresses", () => {
  it.each(["localhost:PORT", "10.1.2.3:PORT", "0.0.0.0:PORT", "PORT"])(
    "never dials a TCP address that is not loopback <IP>:<port> (%s)",
    async (shape) => {
      let connections = 0;
      const server = createServer((socket) => {
        connections++;
        socket.destroy();
      });
      servers.push(server);
      const port = await new Promise<number>((resolve) =>
        server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
      );
      const line = `1|1|tcp|${shape.replace("PORT", String(port))}|grpc`;
      const error = await connectChannel({
        command: process.execPath,
        args: ["-e", FAKE_LINE],
        env: { FAKE_LINE: line },
        logger: silentLogger,
        autoMTLS: false,
      }).catch((e: unknown) => e as PluginStartError);
      expect(error).toBeInstanceOf(PluginStartError);
      expect((error as Error).message).toContain(`invalid handshake line ${JSON.stringify(line)}`);
      expect((error as Error).message).toMatch(/not a loopback "<IP>:<port>"/);
      await new Promise((r) => setTimeout(r, 100));
      expect(connections).toBe(0);
    },
  );
});

describe("spawn failures", () => {
  it("a missing working directory is named as such, not blamed on the command", async () => {
    const error = await connectChannel({
      command: process.execPath,
      args: [ECHO_PLUGIN],
      cwd: "/nonexistent-errand-cwd",
      logger: silentLogger,
    }).catch((e: unknown) => e as PluginStartError);
    expect(error).toBeInstanceOf(PluginStartError);
    expect((error as Error).message).toContain('the working directory "/nonexistent-errand-cwd" does not exist');
    expect((error as PluginStartError).hint).toMatch(/set cwd to an existing directory/);
  });

  it("a working directory that is a file is named as such", async () => {
    const file = join(tempDir("errand-cwd-"), "file");
    writeFileSync(file, "");
    const error = await launchPlugin({
      command: process.execPath,
      args: [ECHO_PLUGIN],
      cwd: file,
      startTimeoutMs: 5000,
      supportedVersions: [1],
      transport: "unix",
      logger: silentLogger,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ERR_PLUGIN_START", message: expect.stringContaining("is not a directory") });
  });

  it.each([
    ["an empty command", { command: "" }],
    ["a command that is not a string", { command: 42 }],
    ["args that are not strings", { command: process.execPath, args: [1] }],
  ])("%s is an ERR_INVALID_ARGUMENT naming the option, with a hint", async (_name, options) => {
    const error = await connectChannel({ ...(options as { command: string }), logger: silentLogger }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: "ERR_INVALID_ARGUMENT",
      message: expect.stringMatching(/^connectChannel: options\.(command|args) /),
      hint: expect.any(String),
    });
  });

  it("a command that does not exist settles the process's exit (no 'exit' event ever comes)", async () => {
    const child = spawn("/nonexistent/errand-plugin", [], { stdio: ["ignore", "pipe", "pipe"] });
    child.on("error", () => {});
    const exit = await Promise.race([watchExit(child), new Promise((r) => setTimeout(r, 2000, "still waiting"))]);
    expect(exit).toEqual({ code: null, signal: null });
  });

  it("a plugin killed while starting is stopped for good before launchPlugin rejects", async () => {
    const error = await launchPlugin({
      command: process.execPath,
      args: ["-e", "process.on('SIGTERM', () => {}); console.log('pid:' + process.pid); setInterval(() => {}, 1000)"],
      startTimeoutMs: 5000,
      supportedVersions: [1],
      transport: "unix",
      logger: silentLogger,
    }).catch((e: unknown) => e as PluginStartError);
    // It ignored SIGTERM, so SIGKILL followed; either way it is gone when the promise settles.
    const pid = Number(/pid:(\d+)/.exec((error as Error).message)?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(await waitForExit(pid, 100)).toBeLessThan(100);
  });
});
